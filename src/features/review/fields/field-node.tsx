import { ListTable } from './list-table';
import { ObjectGroup } from './object-group';
import type { ReviewNode } from '@extraction-review/review-domain/fields/review-tree';
import { SimpleList } from './simple-list';
import { FieldRow } from './field-row';

/** Any node of the field tree, as a list item: a value, an object, a list or a table. */
export function FieldNode({ node, disabled }: { node: ReviewNode; disabled?: boolean }) {
  switch (node.kind) {
    case 'simple':
      return <FieldRow node={node} disabled={disabled} />;
    case 'object':
      return <ObjectGroup node={node} disabled={disabled} />;
    case 'list':
      return node.itemKind === 'object' ? (
        <ListTable node={node} disabled={disabled} />
      ) : (
        <SimpleList node={node} disabled={disabled} />
      );
  }
}
