// Which images wait for a click (components/HeldImage.tsx): those of another origin, whose
// host would learn who read a log, from where and when. Kept apart from the component so that
// the first paint's previews can tell without loading it.

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
