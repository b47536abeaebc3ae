/**
 * The participant's start page and runner: one chunk the router loads when either opens (app/router.tsx,
 * route `lazy`), so the login page paints without them, their answer inputs, the contract's task
 * schemas and zod (issue 24). The service worker precaches this chunk with the shell (web/vite.config.ts),
 * so a reload of the runner offline still opens it.
 */
export { StartPage } from './components/start-page';
export { RunnerPage } from './components/runner-page';
