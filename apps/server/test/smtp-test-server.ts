import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';
import { closeSmtpTransports } from '../src/modules/outbox/smtp-client.js';
import { type TestApp, createTestApp } from './test-app.js';

export interface TReceivedMail {
  from: string;
  to: string[];
  /** The raw message (headers and MIME body); base64 parts stay ASCII either way. */
  data: string;
}

/**
 * A real SMTP server in this process (smtp-server, the nodemailer project's server): records each
 * accepted message and refuses recipients at refused.test with 550, so the failure path runs too.
 */
export async function startSmtpServer() {
  const messages: TReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 20 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refused.test')) {
        callback(Object.assign(new Error('no such user'), { responseCode: 550 }));
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?from=reports@radflow.example`,
    messages,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/**
 * A test app whose e-mail goes over SMTP to a server of its own, for the suite that calls this at
 * its top level (hooks registered here). The app is given the server's address as main.ts gives it
 * SMTP_URL, so its context chooses the SMTP provider as in production.
 */
export function useAppWithSmtp(publicUrl: string, options: { paymentTestGateway?: boolean } = {}) {
  const state = {} as { app: TestApp; smtp: TestSmtp };
  beforeAll(async () => {
    state.smtp = await startSmtpServer();
    state.app = await createTestApp({ smtpUrl: state.smtp.url, publicUrl, ...options });
  });
  afterAll(async () => {
    closeSmtpTransports();
    await state.app.close();
    await state.smtp.close();
  });
  return state;
}

export type TestSmtp = Awaited<ReturnType<typeof startSmtpServer>>;
