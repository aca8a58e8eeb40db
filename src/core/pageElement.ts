// One element of a page a plugin draws in plain DOM (ctx.page: plugins do not depend on the
// shell's React): its properties, its test id and its children. Runs in the browser only.
export const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> & { testid?: string } = {}, ...children: (Node | string)[]) => {
  const node = document.createElement(tag);
  const { testid, ...rest } = props;
  Object.assign(node, rest);
  if (testid) node.dataset.testid = testid;
  node.append(...children);
  return node;
};
