import type { FastifyRequest } from 'fastify';
import type { HtmlContainer, KimTemplate, StaffTask, SubjectTestHtml, TaskSource } from '@attesta/contract';
import type { ScopeRule, SignedAccess } from '../../auth/access.js';
import {
  currentVariantId,
  isContainerInCurrentVariant,
  isContainerInParticipantTestVariant,
  isContentStaff,
  isContentStaffUser,
} from '../../auth/content.access.js';
import type { AuthContext } from '../../auth/types.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { SIGNATURE_PARAM, type ContainerLinkSigner, type ContainerLinkSubject } from './container-links.js';
import * as repo from './kim.repo.js';

export { listParallels, listSubjectExams, listSubjects, listSubjectTests, listVariants } from './kim.repo.js';

/**
 * Interactive content runs third-party scripts, so it is served as an opaque-origin sandbox: no
 * `allow-same-origin` means it cannot read our cookies or storage nor call the API as the user,
 * `connect-src 'none'` stops it phoning out, and only our own origin may frame it.
 */
export const CONTAINER_CSP =
  "sandbox allow-scripts; default-src 'none'; script-src 'self' 'unsafe-inline'; " +
  "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'none'; frame-ancestors 'self'";

// ---------------------------------------------------------------- scope rules

/**
 * Scope of calls naming a variant: admins and experts any; a participant only the variant of
 * their own live exam work.
 */
export function ownVariantOrContentStaff(getId: (req: FastifyRequest) => number): ScopeRule {
  return async (req, auth) => {
    if (isContentStaff(auth)) return true;
    return (await currentVariantId(req.server.ctx.db, auth)) === getId(req);
  };
}

/** Scope of container calls: admins and experts any; a participant only containers of their own variant's tasks. */
export function ownContainerOrContentStaff(getId: (req: FastifyRequest) => number): ScopeRule {
  return async (req, auth) => {
    if (isContentStaff(auth)) return true;
    return isContainerInCurrentVariant(req.server.ctx.db, auth, getId(req));
  };
}

/** The signature a container resource request presents (`?sig=`), or null. */
export function signatureOf(req: FastifyRequest): string | null {
  const value = (req.query as Record<string, unknown> | undefined)?.[SIGNATURE_PARAM];
  return typeof value === 'string' ? value : null;
}

/**
 * The signed-link alternative to a session on container resources: a genuine, unexpired token for
 * this container version, made for the caller (when a session came along too), whose subject may
 * still see the container now (the participant test's current variant has it, or the user is
 * still content staff). Anything else is 403.
 */
export function signedContainerAccess(
  signer: ContainerLinkSigner,
  params: (req: FastifyRequest) => { containerId: number; version: number },
): SignedAccess {
  return {
    presented: (req) => SIGNATURE_PARAM in ((req.query as object | undefined) ?? {}),
    grants: async (req, auth) => {
      const token = signatureOf(req);
      const { containerId, version } = params(req);
      const subject = token === null ? null : signer.verify(token, containerId, version);
      if (!subject || (auth && auth.userId !== subject.userId)) return false;
      const db = req.server.ctx.db;
      return subject.participantTestId !== null
        ? isContainerInParticipantTestVariant(db, subject.participantTestId, containerId)
        : isContentStaffUser(db, subject.userId);
    },
  };
}

/** Whom a signed link is made for: staff read any container, a participant only through their test. */
const linkSubject = (auth: AuthContext): ContainerLinkSubject => ({
  userId: auth.userId,
  participantTestId: isContentStaff(auth) ? null : auth.participantTestId,
});

// ---------------------------------------------------------------- staff task views

export async function taskSource(db: Db, taskId: number): Promise<TaskSource> {
  const task = await repo.findTask(db, taskId);
  if (!task) throw notFound('No such task');
  return {
    id: task.id,
    answerType: task.answerType,
    html: task.html,
    content: task.content,
    reference: task.reference ?? null,
    scoring: task.scoring,
    criteria: task.criteria ?? null,
    solutionHtml: task.solutionHtml,
    maxScore: task.maxScore,
    htmlContainerId: task.htmlContainerId,
  };
}

export async function staffTask(
  db: Db,
  variantId: number,
  position: number,
  withClassifiers: boolean,
): Promise<StaffTask> {
  const row = await repo.findVariantTask(db, variantId, position);
  if (!row) throw notFound('This variant has no task with this number');
  const { task } = row;
  const [taskFiles, classifiers] = await Promise.all([
    repo.taskFiles(db, task.id),
    withClassifiers ? repo.taskClassifiers(db, task.id) : Promise.resolve(undefined),
  ]);
  return {
    variantTaskId: row.variantTaskId,
    variantId,
    position,
    taskId: task.id,
    answerType: task.answerType as StaffTask['answerType'],
    html: sanitizeHtml(task.html),
    content: task.content,
    reference: task.reference ?? null,
    scoring: task.scoring,
    criteria: task.criteria ?? null,
    solutionHtml: task.solutionHtml === null ? null : sanitizeHtml(task.solutionHtml),
    maxScore: row.maxScore,
    files: taskFiles,
    htmlContainerId: task.htmlContainerId,
    ...(classifiers ? { classifiers } : {}),
  };
}

// ---------------------------------------------------------------- templates and procedure

function toTemplate(row: NonNullable<Awaited<ReturnType<typeof repo.findKimTemplate>>>): KimTemplate {
  return {
    id: row.id,
    name: row.name,
    html: sanitizeHtml(row.html),
    css: row.css,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function kimTemplate(db: Db, id: number): Promise<KimTemplate> {
  const row = await repo.findKimTemplate(db, id);
  if (!row) throw notFound('No such template');
  return toTemplate(row);
}

/** Layout template of a variant (who may ask was settled by the scope rule). */
export async function kimTemplateOfVariant(db: Db, variantId: number): Promise<KimTemplate> {
  const templateId = await repo.variantTemplateId(db, variantId);
  if (templateId === undefined) throw notFound('No such variant');
  if (templateId === null) throw notFound('This variant has no layout template');
  return kimTemplate(db, templateId);
}

export async function procedure(db: Db, subjectTestId: number): Promise<SubjectTestHtml> {
  const row = await repo.findProcedureHtml(db, subjectTestId);
  if (!row) throw notFound('No such subject test');
  return { subjectTestId, html: sanitizeHtml(row.html) };
}

// ---------------------------------------------------------------- html containers

/**
 * One version of a container as a page embeds it: its entry page, its resources' paths and a signed
 * link for `subject`. The participant's and staff's read (below) and the admin's preview
 * (authoring) both present a container through it.
 */
export async function containerVersionView(
  db: DbOrTx,
  signer: ContainerLinkSigner,
  container: { id: number; entry: string },
  version: number,
  subject: ContainerLinkSubject,
) {
  const resources = await repo.containerPaths(db, container.id, version);
  const link = signer.sign(container.id, version, subject);
  return {
    entry: (await repo.containerVersionEntry(db, container.id, version)) ?? container.entry,
    resources,
    url: `/api/kim/htmlContainer/${container.id}/${version}/index?${SIGNATURE_PARAM}=${link.token}`,
    urlExpiresAt: link.expiresAt.toISOString(),
  };
}

/**
 * Container metadata with a signed link to its entry page, made for the caller: the current version
 * for staff, the version a participant's work started with for a participant.
 */
export async function container(
  db: Db,
  id: number,
  signer: ContainerLinkSigner,
  auth: AuthContext,
): Promise<HtmlContainer> {
  const row = await repo.findContainer(db, id);
  if (!row) throw notFound('No such container');
  const subject = linkSubject(auth);
  // A participant's work keeps the version it started with; staff see the current one.
  const version =
    (subject.participantTestId !== null
      ? await repo.containerVersionOfWork(db, row.id, subject.participantTestId)
      : null) ?? row.currentVersion;
  return {
    id: row.id,
    name: row.name,
    version,
    ...(await containerVersionView(db, signer, row, version, subject)),
  };
}

export type ResourceRef = { kind: 'index' } | { kind: 'path'; path: string };

/** A stored resource of a container version; the entry page of that version for `index`. */
export async function containerResource(
  db: Db,
  containerId: number,
  version: number,
  ref: ResourceRef,
): Promise<{ mime: string; data: Buffer }> {
  const row = await repo.findContainer(db, containerId);
  if (!row) throw notFound('No such container');
  const path =
    ref.kind === 'index'
      ? ((await repo.containerVersionEntry(db, containerId, version)) ?? row.entry)
      : ref.path;
  const resource = await repo.findContainerResource(db, containerId, version, path);
  if (!resource) throw notFound('No such resource in this container');
  return resource;
}
