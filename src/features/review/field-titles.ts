/**
 * The titles the operator reads for fields, by API path, for every place that names a field outside
 * its own row (the page's polygons, rule marks, the gate's list, a save conflict, the history): the
 * review tree's titles in context (the data schema's, else the names made human), handed down as the
 * rule marks are. Outside a review, or for a path the tree does not hold, the path made human.
 */
import { createContext, useContext, useMemo } from 'react';
import {
  titleFromPath,
  titlesInContext,
  type ReviewNode,
  type TitleOf,
} from '@extraction-review/review-domain/fields/review-tree';

export const FieldTitlesContext = createContext<TitleOf>(titleFromPath);

export function useTitleOf(): TitleOf {
  return useContext(FieldTitlesContext);
}

/**
 * The lookup for a review's tree, the same function while no title changes: the tree changes with
 * every keystroke, the titles only with the schema and the list items (every polygon reads them).
 */
export function useTitleLookup(nodes: readonly ReviewNode[]): TitleOf {
  // The titles as one string: equal titles, an equal key, the same function.
  const key = useMemo(() => JSON.stringify([...titlesInContext(nodes)]), [nodes]);
  return useMemo(() => {
    const titles = new Map(JSON.parse(key) as [string, string][]);
    return (path: string) => titles.get(path) ?? titleFromPath(path);
  }, [key]);
}
