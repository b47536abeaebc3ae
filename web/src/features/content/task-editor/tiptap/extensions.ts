/**
 * Editor extensions beyond the starter kit: sub- and superscript marks, tables (on
 * prosemirror-tables, which @tiptap/pm ships) and formulas. Written here rather than taken from
 * their tiptap packages, which pin other versions of @tiptap/core than the starter kit does.
 */
import { Extension, Mark, Node, mergeAttributes, type CommandProps } from '@tiptap/core';
import {
  addColumnAfter,
  addRowAfter,
  deleteColumn,
  deleteRow,
  deleteTable,
  goToNextCell,
  tableEditing,
  toggleHeaderRow,
} from '@tiptap/pm/tables';
import type { Node as PmNode } from '@tiptap/pm/model';
import { renderFormula, type FormulaAttrs } from './formula';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    scriptMarks: {
      toggleSubscript: () => ReturnType;
      toggleSuperscript: () => ReturnType;
    };
    simpleTable: {
      insertTable: (options?: { rows?: number; cols?: number; withHeaderRow?: boolean }) => ReturnType;
      addColumnAfter: () => ReturnType;
      addRowAfter: () => ReturnType;
      deleteColumn: () => ReturnType;
      deleteRow: () => ReturnType;
      deleteTable: () => ReturnType;
      toggleHeaderRow: () => ReturnType;
    };
    formula: {
      insertFormula: (attrs: FormulaAttrs) => ReturnType;
    };
  }
}

export const Subscript = Mark.create({
  name: 'subscript',
  excludes: 'superscript',
  parseHTML: () => [{ tag: 'sub' }],
  renderHTML: ({ HTMLAttributes }) => ['sub', mergeAttributes(HTMLAttributes), 0],
  addCommands() {
    return {
      toggleSubscript:
        () =>
        ({ commands }) =>
          commands.toggleMark(this.name),
    };
  },
  addKeyboardShortcuts() {
    return { 'Mod-,': () => this.editor.commands.toggleSubscript() };
  },
});

export const Superscript = Mark.create({
  name: 'superscript',
  excludes: 'subscript',
  parseHTML: () => [{ tag: 'sup' }],
  renderHTML: ({ HTMLAttributes }) => ['sup', mergeAttributes(HTMLAttributes), 0],
  addCommands() {
    return {
      toggleSuperscript:
        () =>
        ({ commands }) =>
          commands.toggleMark(this.name),
    };
  },
  addKeyboardShortcuts() {
    return { 'Mod-.': () => this.editor.commands.toggleSuperscript() };
  },
});

const cellAttrs = {
  colspan: { default: 1 },
  rowspan: { default: 1 },
};

const TableCell = Node.create({
  name: 'tableCell',
  content: 'block+',
  isolating: true,
  addAttributes: () => cellAttrs,
  parseHTML: () => [{ tag: 'td' }],
  renderHTML: ({ HTMLAttributes }) => ['td', mergeAttributes(HTMLAttributes), 0],
});

const TableHeader = Node.create({
  name: 'tableHeader',
  content: 'block+',
  isolating: true,
  addAttributes: () => cellAttrs,
  parseHTML: () => [{ tag: 'th' }],
  renderHTML: ({ HTMLAttributes }) => ['th', mergeAttributes(HTMLAttributes), 0],
});

const TableRow = Node.create({
  name: 'tableRow',
  content: '(tableCell | tableHeader)*',
  parseHTML: () => [{ tag: 'tr' }],
  renderHTML: ({ HTMLAttributes }) => ['tr', mergeAttributes(HTMLAttributes), 0],
});

/** A table runs its commands through prosemirror-tables (`tableRole` tells it the node kinds). */
const Table = Node.create({
  name: 'table',
  group: 'block',
  content: 'tableRow+',
  isolating: true,
  parseHTML: () => [{ tag: 'table' }],
  renderHTML: ({ HTMLAttributes }) => ['table', mergeAttributes(HTMLAttributes), ['tbody', 0]],
  addProseMirrorPlugins: () => [tableEditing()],
  addKeyboardShortcuts() {
    return { Tab: () => goToNextCell(1)(this.editor.state, this.editor.view.dispatch) };
  },
  addCommands() {
    const run =
      (command: typeof addRowAfter) =>
      () =>
      ({ state, dispatch }: CommandProps) =>
        command(state, dispatch);
    return {
      insertTable:
        ({ rows = 3, cols = 3, withHeaderRow = true } = {}) =>
        ({ tr, dispatch, editor }) => {
          const { schema } = editor;
          const cell = (header: boolean) =>
            schema.nodes[header ? 'tableHeader' : 'tableCell']!.createAndFill() as PmNode;
          const tableRows = Array.from({ length: rows }, (_, r) =>
            schema.nodes.tableRow!.create(
              null,
              Array.from({ length: cols }, () => cell(withHeaderRow && r === 0)),
            ),
          );
          const table = schema.nodes.table!.create(null, tableRows);
          if (dispatch) tr.replaceSelectionWith(table).scrollIntoView();
          return true;
        },
      addColumnAfter: run(addColumnAfter),
      addRowAfter: run(addRowAfter),
      deleteColumn: run(deleteColumn),
      deleteRow: run(deleteRow),
      deleteTable: run(deleteTable),
      toggleHeaderRow: run(toggleHeaderRow),
    };
  },
});

const TABLE_ROLES: Record<string, string> = {
  table: 'table',
  tableRow: 'row',
  tableCell: 'cell',
  tableHeader: 'header_cell',
};

const TableRoles = Extension.create({
  name: 'tableRoles',
  extendNodeSchema: (extension) =>
    TABLE_ROLES[extension.name] ? { tableRole: TABLE_ROLES[extension.name] } : {},
});

export const TableKit = [TableRoles, Table, TableRow, TableHeader, TableCell];

/**
 * A formula: TeX (stored as `\( … \)` or `\[ … \]` text, which the runner renders with KaTeX) or
 * MathML (stored as its `<math>` element). The editor shows it rendered; a click edits it.
 */
export const Formula = Node.create<{ onEdit: (attrs: FormulaAttrs, pos: number) => void }>({
  name: 'formula',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addOptions: () => ({ onEdit: () => {} }),
  addAttributes: () => ({
    kind: { default: 'tex' },
    source: { default: '' },
    display: { default: false },
  }),
  parseHTML: () => [
    {
      tag: 'span[data-formula]',
      getAttrs: (el) => ({
        kind: el.getAttribute('data-formula') === 'mathml' ? 'mathml' : 'tex',
        source: el.getAttribute('data-source') ?? '',
        display: el.getAttribute('data-display') === 'true',
      }),
    },
  ],
  renderHTML: ({ node }) => [
    'span',
    {
      'data-formula': node.attrs.kind,
      'data-source': node.attrs.source,
      'data-display': String(node.attrs.display),
    },
  ],
  addNodeView() {
    return ({ node, getPos }) => {
      const dom = document.createElement('span');
      dom.className = 'task-editor-formula';
      dom.setAttribute('role', 'button');
      dom.setAttribute('tabindex', '0');
      dom.setAttribute('contenteditable', 'false');
      const attrs = node.attrs as FormulaAttrs;
      dom.innerHTML = renderFormula(attrs);
      dom.title = attrs.source;
      const edit = () => {
        const pos = typeof getPos === 'function' ? getPos() : undefined;
        if (typeof pos === 'number') this.options.onEdit(attrs, pos);
      };
      dom.addEventListener('dblclick', edit);
      dom.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') edit();
      });
      return { dom };
    };
  },
  addCommands() {
    return {
      insertFormula:
        (attrs) =>
        ({ commands }) =>
          commands.insertContent({ type: this.name, attrs }),
    };
  },
});
