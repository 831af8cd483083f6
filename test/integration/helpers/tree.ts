/** Reads a view's tree through its TreeDataProvider, the way the workbench would render it. */
import * as vscode from 'vscode';

export interface TreeRow {
  label: string;
  description: string;
  depth: number;
  /** Whether the row has children (a group or an expandable node). */
  expandable: boolean;
}

function labelText(label: string | vscode.TreeItemLabel | undefined): string {
  if (label === undefined) return '';
  return typeof label === 'string' ? label : label.label;
}

/** A tree item's label as the view shows it. */
export function itemLabel(item: vscode.TreeItem): string {
  return labelText(item.label);
}

/** A tree item's description, '' when it has none or a boolean one. */
export function itemDescription(item: vscode.TreeItem): string {
  return typeof item.description === 'string' ? item.description : '';
}

/**
 * Every row down to `maxDepth` levels, parents before children. Rows are expanded whatever their
 * collapsible state, since a test wants to see what a user could open.
 */
export async function treeRows(provider: vscode.TreeDataProvider<unknown>, maxDepth = 2): Promise<TreeRow[]> {
  const rows: TreeRow[] = [];
  const visit = async (element: unknown, depth: number): Promise<void> => {
    const children = (await provider.getChildren(element)) ?? [];
    for (const child of children) {
      const item = await provider.getTreeItem(child);
      const expandable = (item.collapsibleState ?? vscode.TreeItemCollapsibleState.None) !== vscode.TreeItemCollapsibleState.None;
      rows.push({
        label: labelText(item.label),
        description: itemDescription(item),
        depth,
        expandable,
      });
      if (expandable && depth < maxDepth) await visit(child, depth + 1);
    }
  };
  await visit(undefined, 0);
  return rows;
}

/** The labels of every row down to `maxDepth`. */
export async function treeLabels(provider: vscode.TreeDataProvider<unknown>, maxDepth = 2): Promise<string[]> {
  return (await treeRows(provider, maxDepth)).map((row) => row.label);
}
