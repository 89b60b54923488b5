// The DOM helpers both Build pages use (build.js, replay.js).

/** The element with id `id`. */
export const $ = (id) => document.getElementById(id);

/** A new `tag` element with `attrs` and `children`. */
export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
};
