import { asArray, asString, isObject, type Json } from './format.ts';

/**
 * ChatGPT and DeepSeek keep a conversation as a tree of nodes in `mapping`
 * (`{id: {parent, children, message}}`): edits and regenerations are sibling
 * branches, and only one branch was on screen.
 */

/**
 * The leaf whose `timeOf` is greatest, walking the tree from its roots in
 * `children` order; of equal times, the one met last wins.
 */
export function newestLeaf(mapping: Json, timeOf: (node: Json) => number): string | undefined {
  let newest: { id: string; time: number } | undefined;
  const seen = new Set<string>();
  const stack = Object.keys(mapping)
    .filter((id) => {
      const node = mapping[id];
      return isObject(node) && !(typeof node.parent === 'string' && node.parent in mapping);
    })
    .reverse();
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const node = mapping[id] as Json;
    const children = asArray(node.children).filter(
      (child): child is string => typeof child === 'string' && isObject(mapping[child]),
    );
    if (children.length === 0) {
      const time = timeOf(node);
      if (!newest || time >= newest.time) newest = { id, time };
    }
    stack.push(...children.reverse());
  }
  return newest?.id;
}

/** The nodes from the root down to `id`, following `parent` links up; a cycle ends the walk. */
export function branchTo(mapping: Json, id: string | undefined): Json[] {
  const branch: Json[] = [];
  const seen = new Set<string>();
  while (id !== undefined && !seen.has(id)) {
    seen.add(id);
    const node = mapping[id];
    if (!isObject(node)) break;
    branch.push(node);
    id = asString(node.parent);
  }
  return branch.reverse();
}
