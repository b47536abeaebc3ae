import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layer rules of eslint.config.js must bite: each case lints a deliberately bad file (never
// written to disk) at a real place in the tree and expects the boundary rule to refuse it.
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(file: string, source: string) {
  const [result] = await eslint.lintText(source, { filePath: join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-restricted-paths');
}

describe('web layer boundaries', () => {
  it('a feature importing a sibling feature by a relative path is refused', async () => {
    const errors = await boundaryErrors(
      'web/src/features/homes/components/bad.tsx',
      "import { RoomPage } from '../../monitoring/room-page';\nexport const x = RoomPage;\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('a feature importing app/ is refused', async () => {
    const errors = await boundaryErrors(
      'web/src/features/monitoring/bad.tsx',
      "import { requireRole } from '../../app/routes/guards';\nexport const x = requireRole;\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('a shared component importing a feature is refused', async () => {
    const errors = await boundaryErrors(
      'web/src/components/ui/bad.tsx',
      "import { RoomPage } from '../../features/monitoring/room-page';\nexport const x = RoomPage;\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('a feature importing its own files, lib and components is fine', async () => {
    const errors = await boundaryErrors(
      'web/src/features/monitoring/good.tsx',
      "import { RoomLink } from './room-link';\nimport { apiClient } from '../../lib/api-client';\n" +
        'export const x = [RoomLink, apiClient];\n',
    );
    expect(errors).toEqual([]);
  });
});

describe('lazily loaded web pages', () => {
  const lazyErrors = async (file: string, source: string) => {
    const [result] = await eslint.lintText(source, { filePath: join(root, file) });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports');
  };

  it("React's lazy() outside lazyPage() is refused: the page would come without Mantine's full stylesheet", async () => {
    const errors = await lazyErrors(
      'web/src/features/reports/bad.tsx',
      "import { lazy } from 'react';\nexport const Page = lazy(() => import('./components/reports-page'));\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('lazyPage() itself may use it', async () => {
    const errors = await lazyErrors(
      'web/src/components/ui/lazy-page.ts',
      "import { lazy } from 'react';\nexport const x = lazy;\n",
    );
    expect(errors).toEqual([]);
  });
});

describe('server module boundaries', () => {
  it('a module importing another module’s inner file is refused', async () => {
    const errors = await boundaryErrors(
      'server/src/modules/reports/bad.ts',
      "import { listParticipantTests } from '../participant-test/list.repo.js';\nexport const x = listParticipantTests;\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('a module importing another module’s public face is fine', async () => {
    const errors = await boundaryErrors(
      'server/src/modules/reports/good.ts',
      "import { listParticipantTests } from '../participant-test/index.js';\nexport const x = listParticipantTests;\n",
    );
    expect(errors).toEqual([]);
  });

  it('a route file importing a repository, even its own module’s, is refused', async () => {
    const errors = await boundaryErrors(
      'server/src/modules/participant-test/bad.routes.ts',
      "import { listParticipantTests } from './list.repo.js';\nexport const x = listParticipantTests;\n",
    );
    expect(errors).toHaveLength(1);
  });
});
