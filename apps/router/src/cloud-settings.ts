import { ROUTER_SETTINGS_REFRESH_MS, type TRouterCloudSettings, ZRouterCloudSettings } from '@radflow/core';
import { readFile } from 'node:fs/promises';
import { blankTopLevelText } from '@radflow/dicom';
import { writeFileDurably } from './queue/fs-durable.js';

/** Institution Name (0008,0080): what removeCenterNameWhileUploading leaves out. */
const INSTITUTION_NAME = 'x00080080';

/**
 * The group switches the router follows (issue 29 §6; core ZRouterCloudSettings), read from the
 * cloud's GET /api/router/settings with the center's API token. Asked again when older than
 * ROUTER_SETTINGS_REFRESH_MS; a failed ask keeps the last answer. The last answer is also kept in
 * `file` (written atomically), so a router restarted while the link is down still forwards to the
 * center's PACS as its group allows. Before any answer, read or kept, the router does not guess:
 * uploads wait (they would fail without the cloud anyway) and sends are refused.
 */
export class CloudSettings {
  private current: TRouterCloudSettings | null = null;
  private readAt = 0;
  private pending: Promise<TRouterCloudSettings | null> | null = null;

  constructor(
    private readonly fetchCloud: (path: string) => Promise<Response>,
    private readonly log?: (message: string, fields?: Record<string, unknown>) => void,
    private readonly maxAgeMs = ROUTER_SETTINGS_REFRESH_MS,
    private readonly file?: string,
  ) {}

  /** The settings, asked again when stale; null when the cloud never answered. */
  async read(): Promise<TRouterCloudSettings | null> {
    if (this.current && Date.now() - this.readAt < this.maxAgeMs) return this.current;
    this.pending ??= this.ask().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async ask(): Promise<TRouterCloudSettings | null> {
    try {
      const response = await this.fetchCloud('/api/router/settings');
      if (!response.ok) throw new Error(`the cloud answered ${response.status}`);
      this.current = ZRouterCloudSettings.parse(await response.json());
      this.readAt = Date.now();
    } catch (error) {
      this.log?.('router settings not read', { err: String(error) });
      this.current ??= await this.kept();
      return this.current;
    }
    if (this.file) {
      await writeFileDurably(this.file, JSON.stringify(this.current)).catch((error: unknown) =>
        this.log?.('router settings not kept', { err: String(error) }),
      );
    }
    return this.current;
  }

  /** The answer kept on disk by an earlier run; null when there is none or it does not parse. */
  private async kept(): Promise<TRouterCloudSettings | null> {
    if (!this.file) return null;
    try {
      const parsed = ZRouterCloudSettings.safeParse(JSON.parse(await readFile(this.file, 'utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /**
   * What the uploader does to each image before it goes out: with removeCenterNameWhileUploading,
   * Institution Name blanked in place (dicom blankTopLevelText). Throws while the cloud never
   * answered, so the batch is retried later rather than sent with a name the group wants left out.
   */
  async uploadTransform(): Promise<(bytes: Uint8Array) => Uint8Array> {
    const settings = await this.read();
    if (!settings) throw new Error('The router settings could not be read from the cloud yet');
    return settings.removeCenterNameWhileUploading
      ? (bytes) => blankTopLevelText(bytes, INSTITUTION_NAME)
      : (bytes) => bytes;
  }
}
