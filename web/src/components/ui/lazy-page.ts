import { createElement, lazy, type ComponentType, type LazyExoticComponent } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a page of any props
type AnyComponent = ComponentType<any>;

/** A component with its own props (not `any`). */
type Page<C> = C extends ComponentType<infer P> ? ComponentType<P> : never;

/** The exports of a module that are components. */
type Components<M> = { [K in keyof M]: M[K] extends AnyComponent ? K : never }[keyof M];

/**
 * A page loaded when its route is first shown, in a chunk of its own: what a participant never
 * opens (staff screens, the editor, reports) is never downloaded on the exam's path
 * (docs/ARCHITECTURE.md, «Weight of the participant's path»). `name` is the module's export.
 * The page shows once Mantine's whole stylesheet has loaded too (the shell has only Mantine's base
 * sheets) and inside Mantine's provider with the app's theme (staff-theme.tsx): the participant's
 * path draws with components/lite and never loads either (issue 24).
 */
export function lazyPage<M, K extends Components<M>>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<Page<M[K]>> {
  return lazy(async () => {
    const [module, { StaffTheme }] = await Promise.all([
      load(),
      import('./staff-theme'),
      import('./all-styles'),
    ]);
    const Inner = module[name] as AnyComponent;
    const Themed = (props: object) => createElement(StaffTheme, null, createElement(Inner, props));
    Themed.displayName = `Themed(${String(name)})`;
    return { default: Themed as Page<M[K]> };
  });
}
