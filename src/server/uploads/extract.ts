// Text out of a document: plain text formats as UTF-8, PDF through unpdf, DOCX through mammoth
// (both loaded only when such a file arrives). Images carry no text. Used for chat attachments
// (+file[url]) and file stores alike.
import { fileExtension } from '../../core/uploads.ts';
import { checkZip } from './sniff.ts';

export async function extractText(name: string, data: Uint8Array): Promise<string> {
  const ext = fileExtension(name);
  if (ext === 'pdf') {
    const { extractText: pdfText, getDocumentProxy } = await import('unpdf');
    const pdf = await getDocumentProxy(new Uint8Array(data));
    return (await pdfText(pdf, { mergePages: true })).text;
  }
  if (ext === 'docx') {
    // A DOCX is a ZIP: its entries are counted and sized before anything is inflated.
    const refusal = checkZip(data);
    if (refusal) throw new Error(refusal);
    const mammoth = (await import('mammoth')).default;
    return (await mammoth.extractRawText({ buffer: Buffer.from(data) })).value;
  }
  if (['txt', 'md', 'csv', 'json'].includes(ext)) return new TextDecoder('utf-8').decode(data);
  return '';
}
