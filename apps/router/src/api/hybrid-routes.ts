import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AppError,
  HYBRID_PATHS,
  MESSAGE_HYBRID_ONLY,
  ZHybridStudyQuery,
  ZOfflineAnnotationRef,
  ZOfflineAnnotationSave,
  ZOfflineDraftSave,
  ZOfflineReportSave,
  ZOfflineResolve,
  type THybridStudy,
  type TOfflineReport,
  type TOfflineTemplates,
  type TOfflineVersion,
  type TReportDraft,
  type TViewerAnnotation,
  type TViewerAnnotations,
} from '@radflow/core';
import { MESSAGE_SIGN_IN, parseInput } from './http.js';
import type { HybridReports, VerifiedUser } from './ports.js';

/** The hybrid screens are for hybridModeOn users (spec-core §3: their one role is OFFLINE_HYBRID). */
export const hybridUser = (request: FastifyRequest): VerifiedUser => {
  const user = request.routerUser;
  if (!user) throw new AppError('UNAUTHORIZED', MESSAGE_SIGN_IN);
  if (!user.hybrid) throw new AppError('FORBIDDEN', MESSAGE_HYBRID_ONLY);
  return user;
};

/**
 * GET /hybrid/studies, GET and POST /hybrid/report, GET /hybrid/report/versions, POST /hybrid/resolve,
 * GET /hybrid/templates, GET and POST /hybrid/annotations, POST /hybrid/annotations/delete,
 * GET and POST /hybrid/report/draft, POST /hybrid/report/draft/delete
 * (HYBRID.md "Calls"). `templatesOf`: the signed-in doctor's templates kept at their online sign-in.
 */
export function registerHybridRoutes(
  app: FastifyInstance,
  hybrid: HybridReports,
  templatesOf: (email: string) => TOfflineTemplates = () => ({ savedAt: null, templates: [] }),
): void {
  app.get(HYBRID_PATHS.templates, async (request): Promise<TOfflineTemplates> => {
    const user = hybridUser(request);
    return templatesOf(user.email);
  });

  app.get(HYBRID_PATHS.studies, async (request): Promise<THybridStudy[]> => {
    hybridUser(request);
    return hybrid.studies();
  });

  app.get(HYBRID_PATHS.report, async (request): Promise<TOfflineReport | null> => {
    hybridUser(request);
    const { studyInstanceUid } = parseInput(ZHybridStudyQuery, request.query);
    return hybrid.report(studyInstanceUid);
  });

  app.get(HYBRID_PATHS.versions, async (request): Promise<TOfflineVersion[]> => {
    hybridUser(request);
    const { studyInstanceUid } = parseInput(ZHybridStudyQuery, request.query);
    return hybrid.versions(studyInstanceUid);
  });

  app.post(HYBRID_PATHS.report, async (request): Promise<TOfflineReport> => {
    const user = hybridUser(request);
    const input = parseInput(ZOfflineReportSave, request.body);
    return hybrid.save(input, user);
  });

  app.post(HYBRID_PATHS.resolve, async (request): Promise<TOfflineReport> => {
    const user = hybridUser(request);
    const input = parseInput(ZOfflineResolve, request.body);
    return hybrid.resolve(input, user);
  });

  app.get(HYBRID_PATHS.annotations, async (request): Promise<TViewerAnnotations> => {
    hybridUser(request);
    const { studyInstanceUid } = parseInput(ZHybridStudyQuery, request.query);
    return hybrid.annotations(studyInstanceUid);
  });

  app.post(HYBRID_PATHS.annotations, async (request): Promise<TViewerAnnotation> => {
    const user = hybridUser(request);
    return hybrid.saveAnnotation(parseInput(ZOfflineAnnotationSave, request.body), user);
  });

  app.get(HYBRID_PATHS.draft, async (request): Promise<TReportDraft | null> => {
    const user = hybridUser(request);
    const { studyInstanceUid } = parseInput(ZHybridStudyQuery, request.query);
    return hybrid.draft(studyInstanceUid, user);
  });

  app.post(HYBRID_PATHS.draft, async (request): Promise<TReportDraft> => {
    const user = hybridUser(request);
    return hybrid.saveDraft(parseInput(ZOfflineDraftSave, request.body), user);
  });

  app.post(HYBRID_PATHS.draftDelete, async (request): Promise<Record<string, never>> => {
    const user = hybridUser(request);
    const { studyInstanceUid } = parseInput(ZHybridStudyQuery, request.body);
    await hybrid.deleteDraft(studyInstanceUid, user);
    return {};
  });

  app.post(HYBRID_PATHS.annotationDelete, async (request): Promise<Record<string, never>> => {
    const user = hybridUser(request);
    await hybrid.deleteAnnotation(parseInput(ZOfflineAnnotationRef, request.body), user);
    return {};
  });
}
