import { createHmac, randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Razorpay's Payment Links API and its signer (the machine reaches no outside
 * network): `POST /v1/payment_links` with basic auth, as Razorpay answers it; `pay` plays the payer
 * paying (the callback address with Razorpay's signed parameters); `webhookOf` the signed
 * `payment_link.paid` call Razorpay makes. Its signatures are made here, with node:crypto, from the
 * formats Razorpay documents — not with the code under test.
 */
export interface TFakeLink {
  id: string;
  short_url: string;
  reference_id: string;
  amount: number;
  currency: string;
  accept_partial: boolean;
  description: string;
  callback_url: string;
  callback_method: string;
  notes: Record<string, string> | unknown[];
  status: 'created' | 'paid';
  paymentId: string | null;
}

export interface TFakeRazorpay {
  url: string;
  links: TFakeLink[];
  /** The next link creation answers this status and error (then it works again). */
  failNext(status: number, description: string): void;
  /** The payer pays the link: the return address with Razorpay's signed parameters. */
  pay(link: TFakeLink): string;
  /** Razorpay's signed webhook call for a paid link. */
  webhookOf(
    link: TFakeLink,
    opts?: { eventId?: string; event?: string; amountPaid?: number },
  ): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

const hmacHex = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(payload).digest('hex');
const id = (prefix: string) => `${prefix}_${randomBytes(7).toString('hex')}`;

export async function startFakeRazorpay(keys: {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
}): Promise<TFakeRazorpay> {
  const links: TFakeLink[] = [];
  let failure: { status: number; description: string } | null = null;
  let base = '';

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, description: string) =>
    answer(res, status, { error: { code: 'BAD_REQUEST_ERROR', description } });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/payment_links') return error(res, 404, 'not found');
    const expected = `Basic ${Buffer.from(`${keys.keyId}:${keys.keySecret}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return error(res, 401, 'Authentication failed');
    if (failure) {
      const { status, description } = failure;
      failure = null;
      return error(res, status, description);
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<TFakeLink>;
    if (!Number.isInteger(body.amount) || (body.amount ?? 0) < 100) {
      return error(res, 400, 'The amount must be atleast INR 1.00');
    }
    if (links.some((l) => l.reference_id === body.reference_id)) {
      return error(res, 400, 'Payment Link with given reference_id already exists');
    }
    const linkId = id('plink');
    const link: TFakeLink = {
      id: linkId,
      short_url: `${base}/i/${linkId}`,
      reference_id: String(body.reference_id ?? ''),
      amount: body.amount ?? 0,
      currency: String(body.currency ?? 'INR'),
      accept_partial: body.accept_partial ?? false,
      description: String(body.description ?? ''),
      callback_url: String(body.callback_url ?? ''),
      callback_method: String(body.callback_method ?? ''),
      notes: body.notes ?? [],
      status: 'created',
      paymentId: null,
    };
    links.push(link);
    const { paymentId: _paymentId, ...entity } = link;
    return answer(res, 200, entity);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => error(res, 500, String(e)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    links,
    failNext(status, description) {
      failure = { status, description };
    },
    pay(link) {
      link.status = 'paid';
      link.paymentId ??= id('pay');
      const params = {
        razorpay_payment_id: link.paymentId,
        razorpay_payment_link_id: link.id,
        razorpay_payment_link_reference_id: link.reference_id,
        razorpay_payment_link_status: link.status,
      };
      const signature = hmacHex(
        keys.keySecret,
        `${link.id}|${link.reference_id}|${link.status}|${link.paymentId}`,
      );
      const url = new URL(link.callback_url);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      url.searchParams.set('razorpay_signature', signature);
      return url.toString();
    },
    webhookOf(link, opts = {}) {
      link.status = 'paid';
      link.paymentId ??= id('pay');
      const now = Math.floor(Date.now() / 1000);
      // The shape of Razorpay's payment_link.paid sample payload (the fields we read and some we do not).
      const body = JSON.stringify({
        entity: 'event',
        account_id: 'acc_fake',
        event: opts.event ?? 'payment_link.paid',
        contains: ['payment_link', 'order', 'payment'],
        payload: {
          payment_link: {
            entity: {
              id: link.id,
              reference_id: link.reference_id,
              status: 'paid',
              amount: link.amount,
              amount_paid: opts.amountPaid ?? link.amount,
              currency: link.currency,
              accept_partial: link.accept_partial,
              description: link.description,
              notes: link.notes,
              short_url: link.short_url,
              callback_url: link.callback_url,
              callback_method: link.callback_method,
              created_at: now,
            },
          },
          order: { entity: { id: id('order'), amount: link.amount, status: 'paid' } },
          payment: {
            entity: {
              id: link.paymentId,
              entity: 'payment',
              amount: opts.amountPaid ?? link.amount,
              currency: link.currency,
              status: 'captured',
              method: 'upi',
            },
          },
        },
        created_at: now,
      });
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': hmacHex(keys.webhookSecret, body),
          'x-razorpay-event-id': opts.eventId ?? id('evt'),
        },
      };
    },
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
