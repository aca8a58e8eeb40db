import { createElement, Fragment, type ReactNode } from 'react';

// Where a long token may wrap on a narrow screen: after a `|` of a command's choices
// (`[light|dark|terminal]`), a `/` of a path (`/api/user/update/email-subscription`) and a `_`
// of a name (`ask_wolframalpha`), which browsers do not offer by themselves; anywhere else a
// word stays whole.
const AFTER = /(?<=[|/_])(?=[^\s|/_])/;

/** `text` with a word-break opportunity (`<wbr>`) after each `|`, `/` and `_` inside a token. */
export function breakable(text: string): ReactNode {
  const parts = text.split(AFTER);
  if (parts.length === 1) return text;
  return parts.map((part, i) => createElement(Fragment, { key: i }, i > 0 ? createElement('wbr') : null, part));
}
