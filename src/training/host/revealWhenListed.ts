import type * as vscode from 'vscode';

/** A tree provider that can tell when an item just added has its row. */
interface ListsAddedItems<T> {
  whenListed(id: string): Promise<T | undefined>;
}

/**
 * Selects the row of an item just added. The row exists once the view has read the list again after
 * the item was added: this waits for that read. A hidden view reads nothing, and is not opened for this.
 */
export function revealWhenListed<T>(view: vscode.TreeView<T>, tree: ListsAddedItems<T>, id: string): void {
  if (!view.visible) return;
  void tree
    .whenListed(id)
    .then((node) => {
      if (node && view.visible) return view.reveal(node, { select: true, focus: false });
    })
    .catch(() => undefined);
}
