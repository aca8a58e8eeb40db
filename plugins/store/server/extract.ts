// Text out of an uploaded document: plain text formats as UTF-8, PDF through unpdf, DOCX
// through mammoth (both loaded only when such a file arrives). Images carry no text.
import { extensionOf } from '../common/rules.ts';

export async function extractText(name: string, data: Uint8Array): Promise<string> {
  const ext = extensionOf(name);
  if (ext === 'pdf') {
    const { extractText: pdfText, getDocumentProxy } = await import('unpdf');
    const pdf = await getDocumentProxy(new Uint8Array(data));
    return (await pdfText(pdf, { mergePages: true })).text;
  }
  if (ext === 'docx') {
    const mammoth = (await import('mammoth')).default;
    return (await mammoth.extractRawText({ buffer: Buffer.from(data) })).value;
  }
  if (['txt', 'md', 'csv', 'json'].includes(ext)) return new TextDecoder('utf-8').decode(data);
  return '';
}
