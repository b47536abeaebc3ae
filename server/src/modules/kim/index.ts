/**
 * Owns: the content read side: tasks and variants as the caller may see them, sandboxed html containers and their signed links.
 * Calls: no other module.
 *
 * The content read side's public face: the signed links to html container resources
 * (docs/html-containers.md), which the admin's container preview makes too.
 */
export {
  CONTAINER_LINK_TTL_MS,
  containerLinkSigner,
  SIGNATURE_PARAM,
  type ContainerLinkSigner,
  type ContainerLinkSubject,
} from './container-links.js';
export { containerVersionView } from './kim.service.js';
export { kimRoutes } from './kim.routes.js';
