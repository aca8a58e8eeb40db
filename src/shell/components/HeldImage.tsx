// An image from another origin loads only when the person asks (issue 34). A log or an answer
// (a shared session's too) could otherwise carry a pixel that tells its host who read it, from
// which address and when. Images of the app's own origin (uploads, the pictures image models
// make, kept as the user's uploads) and blob:/data: ones load at once (heldHost.ts).
import { useContext, useState, type ComponentProps, type ReactElement } from 'react';
import { ShellContext } from '../context.tsx';
import { heldHost } from '../heldHost.ts';

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
