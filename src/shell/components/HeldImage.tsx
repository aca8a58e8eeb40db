// An image from another origin loads only when the person asks (issue 34). A log or an answer
// (a shared session's too) could otherwise carry a pixel that tells its host who read it, from
// which address and when. Images of the app's own origin (uploads, the pictures image models
// make, kept as the user's uploads) and blob:/data: ones load at once.
import { useContext, useState, type ComponentProps, type ReactElement } from 'react';
import { ShellContext } from '../context.tsx';

/** The host of an image that must wait for a click, or undefined when it may load now. */
export function heldHost(src: string): string | undefined {
  const page = typeof location === 'undefined' ? undefined : location.origin;
  let url: URL;
  try {
    url = new URL(src, page);
  } catch {
    return undefined; // nothing a browser could request
  }
  if (url.protocol === 'data:' || url.protocol === 'blob:') return undefined;
  return url.origin === page ? undefined : url.host;
}

/**
 * An `<img>`, or in its place a button naming the image's host that shows it. `frame` puts
 * the shown image in something (the previews' link to it).
 */
export function HeldImage({ frame, ...props }: ComponentProps<'img'> & { frame?: (img: ReactElement) => ReactElement }) {
  const services = useContext(ShellContext);
  const [shown, setShown] = useState(false);
  const src = typeof props.src === 'string' ? props.src : '';
  const host = heldHost(src);
  if (!host || shown) {
    const img = <img {...props} />;
    return frame ? frame(img) : img;
  }
  // Outside the shell (stories, the render benchmark) there is no translator: English.
  const label = services?.i18n.tFor('shell')('ui.loadImage', { host }) ?? `Load the image from ${host}`;
  return (
    <span className="held-image" data-testid="held-image">
      {props.alt ? <span className="held-image-alt">{props.alt}</span> : null}
      <button type="button" title={src} onClick={() => setShown(true)}>
        {label}
      </button>
    </span>
  );
}
