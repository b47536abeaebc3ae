import type { ReactNode } from 'react';

/** The page's one <main> for the runner's screens that are not the running work (loading, finished…). */
export function RunnerFrame({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="runner-page">
      {children}
    </main>
  );
}
