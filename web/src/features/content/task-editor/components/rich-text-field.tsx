/**
 * A WYSIWYG field for task html (tiptap through @mantine/tiptap): bold, italic, underline, sub- and
 * superscript, lists, links, tables, images of the task and formulas (TeX or MathML, with a live
 * preview). Its value is stored html, sanitised on every change (the server sanitises again); a
 * source view edits the html itself.
 */
import '@mantine/tiptap/styles.css';
import type { FileInfo } from '@attesta/contract';
import { Input, Stack, Textarea } from '@mantine/core';
import { RichTextEditor, type RichTextEditorLabels } from '@mantine/tiptap';
import Image from '@tiptap/extension-image';
import { useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTaskEditorT } from '../locales';
import { Formula, Subscript, Superscript, TableKit } from '../tiptap/extensions';
import { fromEditorHtml, toEditorHtml, type FormulaAttrs } from '../tiptap/formula';
import { FormulaDialog } from './formula-dialog';
import { ImageDialog } from './image-dialog';

/** What other parts of the page may do with the field: put a gap mark or a picture where the caret is. */
export interface RichTextHandle {
  insertText: (text: string) => void;
  insertHtml: (html: string) => void;
}

interface RichTextFieldProps {
  label: string;
  description?: string;
  value: string;
  onChange: (html: string) => void;
  error?: string;
  required?: boolean;
  /** The task's files (pictures are offered for insertion). */
  files?: FileInfo[];
  /** Uploads pictures to the task; absent while the task is not saved yet. */
  onUpload?: (files: File[]) => Promise<FileInfo[]>;
  onReady?: (handle: RichTextHandle) => void;
  testId?: string;
  minHeight?: number;
}

function useControlLabels(): Partial<RichTextEditorLabels> {
  const { t } = useTaskEditorT();
  return useMemo(
    () => ({
      boldControlLabel: t('taskEditor.editor.bold'),
      italicControlLabel: t('taskEditor.editor.italic'),
      underlineControlLabel: t('taskEditor.editor.underline'),
      clearFormattingControlLabel: t('taskEditor.editor.clear'),
      subscriptControlLabel: t('taskEditor.editor.subscript'),
      superscriptControlLabel: t('taskEditor.editor.superscript'),
      bulletListControlLabel: t('taskEditor.editor.bulletList'),
      orderedListControlLabel: t('taskEditor.editor.orderedList'),
      linkControlLabel: t('taskEditor.editor.link'),
      unlinkControlLabel: t('taskEditor.editor.unlink'),
      linkEditorInputLabel: t('taskEditor.editor.linkUrl'),
      linkEditorInputPlaceholder: 'https://',
      linkEditorExternalLink: t('taskEditor.editor.linkNewTab'),
      linkEditorInternalLink: t('taskEditor.editor.linkSameTab'),
      linkEditorSave: t('taskEditor.editor.save'),
      undoControlLabel: t('taskEditor.editor.undo'),
      redoControlLabel: t('taskEditor.editor.redo'),
      tableInsertControlLabel: t('taskEditor.editor.tableInsert'),
      tableInsertLabel: (columns: number, rows: number) =>
        t('taskEditor.editor.tableSize', { columns, rows }),
      tableDeleteControlLabel: t('taskEditor.editor.tableDelete'),
      tableColumnAfterControlLabel: t('taskEditor.editor.columnAfter'),
      tableColumnDeleteControlLabel: t('taskEditor.editor.columnDelete'),
      tableRowAfterControlLabel: t('taskEditor.editor.rowAfter'),
      tableRowDeleteControlLabel: t('taskEditor.editor.rowDelete'),
      tableToggleHeaderRowControlLabel: t('taskEditor.editor.headerRow'),
    }),
    [t],
  );
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const RichTextField = memo(function RichTextField({
  label,
  description,
  value,
  onChange,
  error,
  required,
  files = [],
  onUpload,
  onReady,
  testId,
  minHeight = 160,
}: RichTextFieldProps) {
  const { t } = useTaskEditorT();
  const labels = useControlLabels();
  const id = useId();
  const [source, setSource] = useState(false);
  const [formula, setFormula] = useState<{ attrs: FormulaAttrs | null; pos: number | null } | null>(null);
  const [imageOpen, setImageOpen] = useState(false);
  const sourceRef = useRef<HTMLTextAreaElement>(null);
  /** The html this field last reported: a different value came from outside (loaded, reset). */
  const emitted = useRef(value);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // Options keep their identity between renders: tiptap then leaves the editor alone.
  const [initialContent] = useState(() => toEditorHtml(value));
  const extensions = useMemo(
    () => [
      StarterKit.configure({
        heading: { levels: [3, 4] },
        code: false,
        codeBlock: false,
        link: { openOnClick: false, autolink: true },
      }),
      Subscript,
      Superscript,
      ...TableKit,
      Image.configure({ inline: true }),
      Formula.configure({ onEdit: (attrs, pos) => setFormula({ attrs, pos }) }),
    ],
    [],
  );
  const editorProps = useMemo(
    () => ({
      attributes: {
        'aria-labelledby': `${id}-label`,
        'aria-multiline': 'true',
        role: 'textbox',
        ...(error ? { 'aria-invalid': 'true' } : {}),
      },
    }),
    [error, id],
  );
  const onUpdate = useCallback(({ editor: e }: { editor: Editor }) => {
    const html = fromEditorHtml(e.getHTML());
    emitted.current = html;
    onChangeRef.current(html);
  }, []);
  const editor = useEditor({
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    extensions,
    content: initialContent,
    editorProps,
    onUpdate,
  });

  useEffect(() => {
    if (!editor || value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(toEditorHtml(value), { emitUpdate: false });
  }, [editor, value]);

  const valueRef = useRef(value);
  useEffect(() => {
    valueRef.current = value;
  }, [value]);
  const setFromSource = (html: string) => {
    valueRef.current = html;
    emitted.current = html;
    onChangeRef.current(html);
  };

  useEffect(() => {
    if (!onReady) return;
    const insertAtSource = (text: string) => {
      const area = sourceRef.current;
      const current = valueRef.current;
      const at = area ? area.selectionStart : current.length;
      setFromSource(current.slice(0, at) + text + current.slice(at));
    };
    onReady({
      insertText: (text) => {
        if (source) insertAtSource(escapeText(text));
        else editor?.chain().focus().insertContent(escapeText(text)).run();
      },
      insertHtml: (html) => {
        if (source) insertAtSource(html);
        else editor?.chain().focus().insertContent(toEditorHtml(html)).run();
      },
    });
  }, [editor, onReady, source]);

  const toggleSource = () => {
    if (source && editor) {
      emitted.current = value;
      editor.commands.setContent(toEditorHtml(value), { emitUpdate: false });
    }
    setSource(!source);
  };

  const saveFormula = (attrs: FormulaAttrs) => {
    if (!editor) return;
    const chain = editor.chain().focus();
    if (formula?.pos !== null && formula?.pos !== undefined) chain.setNodeSelection(formula.pos);
    chain.insertFormula(attrs).run();
    setFormula(null);
  };

  return (
    <Input.Wrapper
      label={<span id={`${id}-label`}>{label}</span>}
      description={description}
      error={error}
      required={required}
      data-testid={testId}
    >
      <Stack gap={4} mt={4}>
        <RichTextEditor editor={editor} labels={labels} variant="subtle">
          <RichTextEditor.Toolbar sticky stickyOffset={0}>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Bold disabled={source} />
              <RichTextEditor.Italic disabled={source} />
              <RichTextEditor.Underline disabled={source} />
              <RichTextEditor.Subscript disabled={source} />
              <RichTextEditor.Superscript disabled={source} />
              <RichTextEditor.ClearFormatting disabled={source} />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.BulletList disabled={source} />
              <RichTextEditor.OrderedList disabled={source} />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Link disabled={source} />
              <RichTextEditor.Unlink disabled={source} />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.TableInsert disabled={source} />
              <RichTextEditor.TableRowAfter disabled={source} />
              <RichTextEditor.TableColumnAfter disabled={source} />
              <RichTextEditor.TableToggleHeaderRow disabled={source} />
              <RichTextEditor.TableRowDelete disabled={source} />
              <RichTextEditor.TableColumnDelete disabled={source} />
              <RichTextEditor.TableDelete disabled={source} />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Control
                aria-label={t('taskEditor.editor.image')}
                title={t('taskEditor.editor.image')}
                disabled={source}
                onClick={() => setImageOpen(true)}
              >
                <svg
                  aria-hidden="true"
                  width="16"
                  height="16"
                  viewBox="0 0 24 24"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.8"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                >
                  <rect x="3" y="4" width="18" height="16" rx="2" />
                  <circle cx="9" cy="10" r="2" />
                  <path d="M21 17l-5-5-9 8" />
                </svg>
              </RichTextEditor.Control>
              <RichTextEditor.Control
                aria-label={t('taskEditor.editor.formula')}
                title={t('taskEditor.editor.formula')}
                disabled={source}
                onClick={() => setFormula({ attrs: null, pos: null })}
              >
                <span aria-hidden="true">∑</span>
              </RichTextEditor.Control>
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Undo disabled={source} />
              <RichTextEditor.Redo disabled={source} />
              <RichTextEditor.Control
                aria-label={t('taskEditor.editor.source')}
                title={t('taskEditor.editor.source')}
                active={source}
                aria-pressed={source}
                onClick={toggleSource}
              >
                <span aria-hidden="true">{'</>'}</span>
              </RichTextEditor.Control>
            </RichTextEditor.ControlsGroup>
          </RichTextEditor.Toolbar>
          <div hidden={source}>
            <RichTextEditor.Content mih={minHeight} className="task-editor-content" />
          </div>
          {source && (
            <Textarea
              ref={sourceRef}
              aria-label={t('taskEditor.editor.sourceLabel', { field: label })}
              value={value}
              onChange={(e) => setFromSource(e.currentTarget.value)}
              autosize
              minRows={6}
              styles={{ input: { fontFamily: 'monospace' } }}
              data-testid={testId ? `${testId}-source` : undefined}
            />
          )}
        </RichTextEditor>
      </Stack>
      {formula && (
        <FormulaDialog initial={formula.attrs} onSave={saveFormula} onClose={() => setFormula(null)} />
      )}
      {imageOpen && (
        <ImageDialog
          files={files}
          onUpload={onUpload}
          onInsert={(src, alt) => {
            editor?.chain().focus().setImage({ src, alt }).run();
            setImageOpen(false);
          }}
          onClose={() => setImageOpen(false)}
        />
      )}
    </Input.Wrapper>
  );
});

export type { Editor };
