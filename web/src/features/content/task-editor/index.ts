/**
 * The task editor of the content screens: create a task in a subject's pool, or edit one. The
 * editor (tiptap, prosemirror) loads with the page, not with the app.
 */
import { Loader } from '@mantine/core';
import { createElement, Suspense } from 'react';
import { lazyPage } from '../../../components/ui/lazy-page';
import type { TaskEditorPageProps } from './components/task-editor-page';

export type { TaskEditorPageProps };

const LazyTaskEditorPage = lazyPage(() => import('./components/task-editor-page'), 'TaskEditorPage');

export function TaskEditorPage(props: TaskEditorPageProps) {
  return createElement(
    Suspense,
    { fallback: createElement(Loader, { size: 'sm', m: 'lg' }) },
    createElement(LazyTaskEditorPage, props),
  );
}
