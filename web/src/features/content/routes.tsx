/**
 * The КИМ section of the admin's work place, under `/admin/content`: subject tests (list, form,
 * variants, check, publication, export, variant preview), the task pool and the task editor's
 * route, subjects with exams and test groups, specifications, content import, the interactive
 * (html) containers, and the platform's help sections and pages.
 */
import { Navigate, type RouteObject } from 'react-router';
import { CONTENT_BASE } from './content-base';
import { lazyPage } from '../../components/ui/lazy-page';

const ContentLayout = lazyPage(() => import('./components/content-layout'), 'ContentLayout');
const ContainersPage = lazyPage(() => import('./components/containers-page'), 'ContainersPage');
const HelpSectionsPage = lazyPage(() => import('./components/help-pages'), 'HelpSectionsPage');
const HtmlTextsPage = lazyPage(() => import('./components/help-pages'), 'HtmlTextsPage');
const ImportPage = lazyPage(() => import('./components/import-page'), 'ImportPage');
const ImportStatusPage = lazyPage(() => import('./components/import-page'), 'ImportStatusPage');
const SpecificationPage = lazyPage(() => import('./components/specification-page'), 'SpecificationPage');
const SpecificationsPage = lazyPage(() => import('./components/specifications-page'), 'SpecificationsPage');
const SubjectTestCreatePage = lazyPage(
  () => import('./components/subject-test-page'),
  'SubjectTestCreatePage',
);
const SubjectTestPage = lazyPage(() => import('./components/subject-test-page'), 'SubjectTestPage');
const SubjectTestsPage = lazyPage(() => import('./components/subject-tests-page'), 'SubjectTestsPage');
const SubjectsPage = lazyPage(() => import('./components/subjects-page'), 'SubjectsPage');
const TaskEditorRoute = lazyPage(() => import('./components/task-editor-route'), 'TaskEditorRoute');
const TaskPoolPage = lazyPage(() => import('./components/task-pool-page'), 'TaskPoolPage');
const VariantPreviewPage = lazyPage(() => import('./components/variant-preview-page'), 'VariantPreviewPage');

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
