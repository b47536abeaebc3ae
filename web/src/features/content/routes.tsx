/**
 * The КИМ section of the admin's work place, under `/admin/content`: subject tests (list, form,
 * variants, check, publication, export, variant preview), the task pool and the task editor's
 * route, subjects with exams and test groups, specifications, content import, the interactive
 * (html) containers, and the platform's help sections and pages.
 */
import { Navigate, type RouteObject } from 'react-router';
import { CONTENT_BASE, ContentLayout } from './components/content-layout';
import { ContainersPage } from './components/containers-page';
import { HelpSectionsPage, HtmlTextsPage } from './components/help-pages';
import { ImportPage, ImportStatusPage } from './components/import-page';
import { SpecificationPage } from './components/specification-page';
import { SpecificationsPage } from './components/specifications-page';
import { SubjectTestCreatePage, SubjectTestPage } from './components/subject-test-page';
import { SubjectTestsPage } from './components/subject-tests-page';
import { SubjectsPage } from './components/subjects-page';
import { TaskEditorRoute } from './components/task-editor-route';
import { TaskPoolPage } from './components/task-pool-page';
import { VariantPreviewPage } from './components/variant-preview-page';

/**
 * The `content` child of `/admin` (the admin guard sits on the parent). `extra` are further pages
 * of the section that live elsewhere (the read-only overview of variants and pause rules).
 */
export function contentRoutes(extra: RouteObject[] = []): RouteObject[] {
  return [
    {
      path: 'content',
      element: <ContentLayout />,
      children: [
        { index: true, element: <Navigate to={`${CONTENT_BASE}/tests`} replace /> },
        { path: 'tests', element: <SubjectTestsPage /> },
        { path: 'tests/new', element: <SubjectTestCreatePage /> },
        { path: 'tests/:id', element: <SubjectTestPage /> },
        { path: 'tests/:id/variants/:variantId/preview', element: <VariantPreviewPage /> },
        { path: 'tasks', element: <TaskPoolPage /> },
        { path: 'tasks/new', element: <TaskEditorRoute /> },
        { path: 'tasks/:taskId', element: <TaskEditorRoute /> },
        { path: 'subjects', element: <SubjectsPage /> },
        { path: 'specifications', element: <SpecificationsPage /> },
        { path: 'specifications/:id', element: <SpecificationPage /> },
        { path: 'import', element: <ImportPage /> },
        { path: 'import/:importId', element: <ImportStatusPage /> },
        { path: 'containers', element: <ContainersPage /> },
        { path: 'help', element: <HelpSectionsPage /> },
        { path: 'pages', element: <HtmlTextsPage /> },
        ...extra,
      ],
    },
  ];
}
