import type { Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { runEchoscu, runStorescu } from '@radflow/dicom/test-support';
import { studies } from '../../db/schema.js';
import { type DicomServices, type DicomServicesConfig, startDicomServices } from './dicom-services.js';
import { type TestApp, createTestApp, createTestCenter, createTestGroup } from '../../../test/test-app.js';
import {
  associateRequestPdu,
  cStoreCommand,
  firstPduType,
  openSocket,
  pDataPdu,
  whenClosed,
} from '../../../test/archive/dimse-wire.js';
import { FIXTURES_DIR, LIVER, corpus, fixturePath, setAeTitles } from '../../../test/archive/fixtures.js';

/**
 * The DICOM port is shared by every center: one remote address must not be able to hold it
 * (issue: 33 idle connections blocked every center's C-STORE). Each address has its own cap, a
 * connection that sends no A-ASSOCIATE-RQ is dropped by the ARTIM timer (PS3.8 §9.1.5), a silent
 * association is aborted, and the global cap leaves room for others.
 */

let t: TestApp;
let groupId: number;
const AET = `LIM${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
const opened: Socket[] = [];
const services: DicomServices[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const group = await createTestGroup(t.db);
  groupId = group.id;
  const center = await createTestCenter(t.db, { groupId: group.id });
  await setAeTitles(t.db, center.id, [AET]);
});
afterAll(async () => {
  for (const socket of opened) socket.destroy();
  for (const service of services) await service.close();
  await t.close();
});

async function start(limits: Partial<DicomServicesConfig> = {}): Promise<DicomServices> {
  const service = await startDicomServices(t.app.ctx, {
    DICOM_PORT: 0,
    DICOM_AET: 'RADFLOW',
    HOST: '127.0.0.1',
    ...limits,
  });
  services.push(service);
  return service;
}

async function open(port: number, localAddress: string): Promise<Socket> {
  const socket = await openSocket(port, localAddress);
  opened.push(socket);
  return socket;
}

/** Resolves with the close, or with `null` once `ms` passed without one. */
function closedWithin(socket: Socket, ms: number) {
  const guard = new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref());
  return Promise.race([whenClosed(socket), guard]);
}

const echo = (port: number) => runEchoscu({ host: '127.0.0.1', port, calledAet: 'RADFLOW', callingAet: AET });

describe('the DICOM port under idle connections', () => {
  it('50 idle connections from one address leave the port to another: storescu stores a series promptly', async () => {
    const dicom = await start();
    const sockets = await Promise.all(Array.from({ length: 50 }, () => open(dicom.port, '127.0.0.2')));
    const closes = sockets.map((socket) => whenClosed(socket));
    const run = await runStorescu({
      host: '127.0.0.1',
      port: dicom.port,
      calledAet: 'RADFLOW',
      callingAet: AET,
      files: LIVER.map(fixturePath),
      configFile: path.join(FIXTURES_DIR, '..', 'dcmtk', 'storescu-all-syntaxes.cfg'),
      timeoutMs: 30_000,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.elapsedMs).toBeLessThan(10_000);
    const uid = corpus.find((f) => f.path === LIVER[0])!.study_instance_uid!;
    const [study] = await t.db
      .select({ instanceCount: studies.instanceCount })
      .from(studies)
      .where(and(eq(studies.groupId, groupId), eq(studies.studyInstanceUid, uid)));
    expect(study?.instanceCount).toBe(4);
    for (const socket of sockets) socket.destroy();
    await Promise.all(closes);
  }, 60_000);

  it('a connection that never completes its A-ASSOCIATE-RQ is closed by the ARTIM timer, trickling or not', async () => {
    const dicom = await start({ DICOM_ASSOCIATION_REQUEST_TIMEOUT_SECONDS: 1 });
    const silent = await open(dicom.port, '127.0.0.3');
    const trickling = await open(dicom.port, '127.0.0.3');
    // One byte of a request every 100 ms: bytes arrive, a request never does.
    const request = associateRequestPdu(AET, 'RADFLOW');
    let sent = 0;
    const trickle = setInterval(() => {
      if (!trickling.destroyed && sent < request.length - 1) trickling.write(request.subarray(sent, ++sent));
    }, 100);
    const [silentClose, tricklingClose] = await Promise.all([
      closedWithin(silent, 8_000),
      closedWithin(trickling, 8_000),
    ]);
    clearInterval(trickle);
    expect(silentClose?.afterMs ?? Infinity, 'silent connection still open').toBeLessThan(3_000);
    expect(tricklingClose?.afterMs ?? Infinity, 'trickling connection still open').toBeLessThan(3_000);
  }, 20_000);

  it('an association that then says nothing is aborted after the idle timeout', async () => {
    const dicom = await start({ DICOM_IDLE_TIMEOUT_SECONDS: 1 });
    const socket = await open(dicom.port, '127.0.0.4');
    const accepted = firstPduType(socket);
    const closed = closedWithin(socket, 8_000);
    socket.write(associateRequestPdu(AET, 'RADFLOW'));
    expect(await accepted).toBe(0x02); // A-ASSOCIATE-AC
    const close = await closed;
    expect(close?.afterMs ?? Infinity, 'idle association still open').toBeLessThan(4_000);
    // The last PDU before the close is an A-ABORT (type 7, 10 bytes).
    expect(close!.received.readUInt8(close!.received.length - 10)).toBe(0x07);
  }, 20_000);

  it('a C-STORE whose data set stops half-way is aborted after the idle timeout too', async () => {
    const dicom = await start({ DICOM_IDLE_TIMEOUT_SECONDS: 1 });
    const socket = await open(dicom.port, '127.0.0.4');
    const accepted = firstPduType(socket);
    const closed = closedWithin(socket, 8_000);
    const CR_STORAGE = '1.2.840.10008.5.1.4.1.1.1';
    socket.write(associateRequestPdu(AET, 'RADFLOW', CR_STORAGE));
    expect(await accepted).toBe(0x02);
    // The command, then the first fragment of the data set (not the last), then nothing.
    socket.write(pDataPdu(1, 0x03, cStoreCommand(CR_STORAGE, '1.2.3.4.5')));
    socket.write(pDataPdu(1, 0x00, Buffer.alloc(64)));
    const close = await closed;
    expect(close?.afterMs ?? Infinity, 'half-sent C-STORE still open').toBeLessThan(4_000);
  }, 20_000);

  it('connections beyond one address’s cap are closed at once; the global cap leaves room for others', async () => {
    const dicom = await start({ DICOM_MAX_CONNECTIONS_PER_ADDRESS: 3, DICOM_MAX_CONNECTIONS: 6 });
    const first = await Promise.all([1, 2, 3].map(() => open(dicom.port, '127.0.0.5')));
    const firstClosed = first.map((socket) => closedWithin(socket, 5_000));
    const fourth = await open(dicom.port, '127.0.0.5');
    expect(
      (await closedWithin(fourth, 2_000))?.afterMs ?? Infinity,
      'fourth connection still open',
    ).toBeLessThan(1_000);
    // Another address is still served meanwhile: the three are its address's share, not the port.
    expect((await echo(dicom.port)).exitCode).toBe(0);
    expect(first.every((socket) => !socket.destroyed && socket.readyState === 'open')).toBe(true);

    // Three more from a second address fill the port: a third address is then turned away ...
    const second = await Promise.all([1, 2, 3].map(() => open(dicom.port, '127.0.0.6')));
    const seventh = await open(dicom.port, '127.0.0.7');
    expect(
      (await closedWithin(seventh, 2_000))?.afterMs ?? Infinity,
      'seventh connection still open',
    ).toBeLessThan(1_000);
    // A DICOM peer over the cap is told why: an A-ASSOCIATE-RJ, transient, local limit exceeded.
    const refused = await echo(dicom.port);
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/Association Rejected[\s\S]*Local.Limit.Exceeded/i);
    // ... until a connection ends.
    for (const socket of first) socket.destroy();
    await Promise.all(firstClosed);
    expect((await echo(dicom.port)).exitCode).toBe(0);
    for (const socket of second) socket.destroy();
  }, 30_000);
});
