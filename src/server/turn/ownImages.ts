// The images a local model's turn may put in a log (POST /api/log/add): only this server's own
// uploads. A log's images show to whoever reads the session, a shared one too; a URL of another
// host there is a tracking pixel (who read it, from where, when). Other URLs are dropped, and
// an upload's URL is rewritten to this server's origin (the id is what names the file).
import { UPLOAD_OBJECT_PATH } from '../../core/uploads.ts';

export function ownImages(urls: readonly string[], origin: string): string[] {
  return urls.flatMap((url) => {
    const path = URL.parse(url)?.pathname;
    return path && UPLOAD_OBJECT_PATH.test(path) ? [`${origin}${path}`] : [];
  });
}
