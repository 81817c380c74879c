import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AppError,
  ROUTER_PATHS,
  ROUTER_RETRY_PATH,
  ZLoginForm,
  ZSendJobGetRequest,
  ZSendJobRunRequest,
  ZStudyUidRequest,
  type TRouterInfo,
  type TRouterLoginAnswer,
} from '@radflow/core';
import { CLEAR_VIEWER_COOKIE } from './dicomweb-routes.js';
import { MESSAGE_SIGN_IN, parseInput, type LocalApiOptions } from './http.js';
import type { PrintImage, VerifiedUser } from './ports.js';
import type { RouterSessions } from './sessions.js';
import { MESSAGE_FILE_REQUIRED, uploadFile, uploadZip } from './uploads.js';

export const ROUTER_NAME = 'Radflow router';
export const MESSAGE_MULTIPART_REQUIRED = 'This call takes a multipart/form-data body';
const PRINT_IMAGE_MAX_BYTES = 64 * 1024 * 1024;
export const MESSAGE_IMAGES_REQUIRED = 'At least one image is required';

const signedIn = (request: FastifyRequest): VerifiedUser => {
  if (!request.routerUser) throw new AppError('UNAUTHORIZED', MESSAGE_SIGN_IN);
  return request.routerUser;
};

/** The text fields of a multipart body (files are refused: these calls take none). */
async function multipartFields(request: FastifyRequest): Promise<Record<string, string>> {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGE_MULTIPART_REQUIRED);
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      part.file.resume();
      throw new AppError('BAD_REQUEST', 'This call takes no files', part.fieldname);
    }
    fields[part.fieldname] = String(part.value);
  }
  return fields;
}

/** The one file of an upload call, in the field "file". */
async function uploadedFile(request: FastifyRequest): Promise<MultipartFile> {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGE_MULTIPART_REQUIRED);
  const file = await request.file();
  if (!file || file.fieldname !== 'file') {
    file?.file.resume();
    throw new AppError('BAD_REQUEST', MESSAGE_FILE_REQUIRED, 'file');
  }
  return file;
}

/** The spec's calls (spec-core §7 'Local router'): each is a parse and one call of a port. */
export function registerRoutes(
  app: FastifyInstance,
  options: LocalApiOptions,
  sessions: RouterSessions,
): void {
  const { queue, sendJobs, printer, releases, cloudLogin } = options;
  const startedAt = new Date(options.now?.() ?? Date.now()).toISOString();
  const maxUploadBytes = options.maxUploadBytes ?? 4 * 1024 ** 3;

  // Catches an OPTIONS the guard did not answer (no Origin): nothing to allow.
  app.options('/*', { config: { isPublic: true } }, async (_request, reply) => reply.code(204).send());

  app.post(
    ROUTER_PATHS.login,
    { config: { isPublic: true } },
    async (request): Promise<TRouterLoginAnswer> => {
      const credentials = parseInput(ZLoginForm, await multipartFields(request));
      const user = await cloudLogin.verify(credentials);
      sessions.end(request.routerToken); // a new sign-in replaces the tab's old session
      const { token, expiresAt } = sessions.create(user);
      return {
        token,
        email: user.email,
        identifier: user.identifier,
        hybrid: user.hybrid === true,
        expiresAt: expiresAt.toISOString(),
      };
    },
  );

  app.post(ROUTER_PATHS.logout, { config: { isPublic: true } }, async (request, reply) => {
    sessions.end(request.routerToken);
    void reply.header('set-cookie', CLEAR_VIEWER_COOKIE);
    return { ok: true as const };
  });

  app.get(ROUTER_PATHS.info, { config: { isPublic: true } }, async (request): Promise<TRouterInfo> => {
    const user = request.routerUser;
    // Without a session the router says who it is, but nothing of its queue (patients' studies).
    const cases = user ? await queue.pendingCases() : [];
    return {
      name: ROUTER_NAME,
      version: options.version,
      serverUrl: options.serverUrl,
      startedAt,
      user: user ? { email: user.email, identifier: user.identifier, hybrid: user.hybrid === true } : null,
      queue: {
        studies: cases.length,
        instances: cases.reduce((n, c) => n + c.total, 0),
        sent: cases.reduce((n, c) => n + c.sent, 0),
        failedStudies: cases.filter((c) => c.state === 'FAILED').length,
      },
    };
  });

  app.get(ROUTER_PATHS.pendingCases, async () => queue.pendingCases());

  app.post(ROUTER_RETRY_PATH, async (request) => {
    const { studyInstanceUid } = parseInput(ZStudyUidRequest, request.body);
    await queue.retry(studyInstanceUid);
    return { ok: true as const };
  });

  app.post(ROUTER_PATHS.deleteUploadedStudy, async (request) => {
    const { studyInstanceUid } = parseInput(ZStudyUidRequest, request.body);
    await queue.deleteUploadedStudy(studyInstanceUid);
    return { ok: true as const };
  });

  app.post(ROUTER_PATHS.uploadFile, async (request) => uploadFile(await uploadedFile(request), queue));

  app.post(ROUTER_PATHS.uploadZip, async (request) =>
    uploadZip(await uploadedFile(request), options.incomingDir, queue, maxUploadBytes),
  );

  app.post(ROUTER_PATHS.sendJobGet, async (request) => {
    const { studyIds } = parseInput(ZSendJobGetRequest, request.body);
    return sendJobs.get(studyIds);
  });

  app.post(ROUTER_PATHS.sendJobRun, async (request, reply) => {
    const job = parseInput(ZSendJobRunRequest, request.body);
    return reply.code(202).send(await sendJobs.run(job));
  });

  app.post(ROUTER_PATHS.imagePrint, async (request) => {
    const user = signedIn(request);
    if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGE_MULTIPART_REQUIRED);
    const images: PrintImage[] = [];
    let content = '';
    // Films are images of a few MB: each is held in memory for the printer, so each is capped.
    for await (const part of request.parts({ limits: { fileSize: PRINT_IMAGE_MAX_BYTES } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'images') {
          part.file.resume();
          throw new AppError('BAD_REQUEST', 'Print images go in the field "images"', part.fieldname);
        }
        images.push({ fileName: part.filename, mimeType: part.mimetype, data: await part.toBuffer() });
      } else if (part.fieldname === 'content') {
        content = String(part.value);
      }
    }
    if (images.length === 0) throw new AppError('BAD_REQUEST', MESSAGE_IMAGES_REQUIRED, 'images');
    return printer.print({ images, content, userEmail: user.email });
  });

  app.get(ROUTER_PATHS.settings, async () => options.settings.settings());

  app.get(ROUTER_PATHS.checkVersion, async () => releases.checkVersion());

  app.post(ROUTER_PATHS.update, async (_request, reply) => {
    const answer = await releases.update();
    return reply.code(answer.status === 'STARTED' ? 202 : 200).send(answer);
  });
}
