import { existsSync, readFileSync } from 'node:fs';
import { storyServer } from './server.js';

interface TOutboxLine {
  channel: string;
  recipient: string;
  body: string;
  createdAt: string;
}

/** Messages the server's outbox provider recorded (mirrored to a file the test server was given). */
export function readOutbox(): TOutboxLine[] {
  const file = storyServer().outboxFile;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TOutboxLine);
}

/** The newest 6-digit code sent by SMS to a mobile number, polled until it arrives. */
export async function waitForOtp(mobile: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sms = readOutbox()
      .filter((m) => m.channel === 'SMS' && m.recipient.endsWith(mobile))
      .at(-1);
    const code = sms?.body.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no OTP for ${mobile} in the outbox`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
