import {
  REPORT_TEMPLATES_PATH,
  ZReportTemplate,
  type TReportTemplate,
  type TReportTemplateQuery,
  type TReportTemplateRequest,
} from '@radflow/core';
import { apiRequest, type TSchema } from '../../api/client';

/**
 * The template calls (reporting DECISIONS.md): GET/POST /api/report-template/, PUT/DELETE
 * /api/report-template/{id}. The writes are quiet: the dialogs show the server's refusal themselves.
 */

const ZTemplateList: TSchema<TReportTemplate[]> = {
  safeParse(value: unknown) {
    if (!Array.isArray(value)) return { success: false, error: new Error('not a list') };
    const out: TReportTemplate[] = [];
    for (const item of value) {
      const parsed = ZReportTemplate.safeParse(item);
      if (!parsed.success) return { success: false, error: parsed.error };
      out.push(parsed.data);
    }
    return { success: true, data: out };
  },
};

export const TEMPLATES_QUERY_KEY = ['report-templates'] as const;
export const templatesQueryKey = (query: TReportTemplateQuery) => [...TEMPLATES_QUERY_KEY, query] as const;

/** The caller's and the group's templates; with a study's facts, only those that fit it. */
export function fetchTemplates(
  query: TReportTemplateQuery,
  signal?: AbortSignal,
): Promise<TReportTemplate[]> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const search = params.toString();
  return apiRequest(`${REPORT_TEMPLATES_PATH}${search ? `?${search}` : ''}`, {
    schema: ZTemplateList,
    signal,
  });
}

export function createTemplate(body: TReportTemplateRequest): Promise<TReportTemplate> {
  return apiRequest('/api/report-template/', {
    method: 'POST',
    json: body,
    quiet: true,
    schema: ZReportTemplate,
  });
}

export function updateTemplate(id: number, body: TReportTemplateRequest): Promise<TReportTemplate> {
  return apiRequest(`/api/report-template/${id}`, {
    method: 'PUT',
    json: body,
    quiet: true,
    schema: ZReportTemplate,
  });
}

export function deleteTemplate(id: number): Promise<unknown> {
  return apiRequest(`/api/report-template/${id}`, { method: 'DELETE', quiet: true });
}

/** The request that keeps a template as it is, for edits of one part (content or tags). */
export function requestOf(template: TReportTemplate): TReportTemplateRequest {
  return {
    name: template.name,
    content: template.content,
    modalities: template.modalities,
    bodyParts: template.bodyParts,
    gender: template.gender,
  };
}
