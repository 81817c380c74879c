import nodemailer, { type Transporter } from 'nodemailer';

/**
 * E-mail over SMTP with nodemailer (STARTTLS on `smtp://` when offered, TLS on `smtps://`,
 * credentials from the URL). The sender is `?from=` of SMTP_URL, else `radflow@{host}`. One pooled
 * transport per URL, so a burst of shares reuses the connection instead of a handshake each.
 */

export interface TMail {
  to: string;
  subject: string;
  text: string;
  attachments?: ReadonlyArray<{ filename: string; content: Uint8Array; contentType: string }>;
}

interface TSmtpTarget {
  transport: Transporter;
  from: string;
}

const targets = new Map<string, TSmtpTarget>();

function targetOf(smtpUrl: string, timeoutMs: number): TSmtpTarget {
  const known = targets.get(smtpUrl);
  if (known) return known;
  const url = new URL(smtpUrl);
  const from = url.searchParams.get('from') ?? `radflow@${url.hostname}`;
  url.search = '';
  const target = {
    transport: nodemailer.createTransport({
      url: url.toString(),
      pool: true,
      maxConnections: 2,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    }),
    from,
  };
  targets.set(smtpUrl, target);
  return target;
}

/** Sends one plain-text UTF-8 mail (with its attachments, base64); rejects with the server's answer when it refuses. */
export async function sendSmtpMail(
  smtpUrl: string,
  mail: TMail,
  opts: { timeoutMs?: number } = {},
): Promise<void> {
  const { transport, from } = targetOf(smtpUrl, opts.timeoutMs ?? 15_000);
  // base64 keeps any script (Devanagari names, …) intact through every relay.
  await transport.sendMail({
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    textEncoding: 'base64',
    attachments: (mail.attachments ?? []).map((a) => ({
      filename: a.filename,
      content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength),
      contentType: a.contentType,
    })),
  });
}

/** Closes the pooled connections (tests, shutdown). */
export function closeSmtpTransports(): void {
  for (const { transport } of targets.values()) transport.close();
  targets.clear();
}
