/**
 * DCMTK's Print SCP (`dcmprscp -c <cfg> -p <printer>`) on 127.0.0.1 for tests: a minimal
 * configuration written from DCMTK's example dcmpstat.cfg ([[GENERAL]] print spool and database
 * folders, one LOCALPRINTER in [[COMMUNICATION]]), all in a temp dir removed on stop.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, stopProcess, waitForPort } from '@radflow/dicom/test-support';

export interface RunningPrintScp {
  readonly port: number;
  readonly aeTitle: string;
  readonly dir: string;
  /** Where dcmprscp stores the Stored Print and Hardcopy Grayscale Image objects of each job. */
  readonly databaseDir: string;
  readonly output: () => string;
  stop(): Promise<void>;
}

export async function startPrintScp(aeTitle = 'FILMPRINTER'): Promise<RunningPrintScp> {
  const dir = await mkdtemp(path.join(tmpdir(), 'radflow-dcmprscp-'));
  const port = await freePort();
  const databaseDir = path.join(dir, 'database');
  for (const sub of ['spool', 'database', 'log']) await mkdir(path.join(dir, sub));
  const config = `[[GENERAL]]
[APPLICATION]
LogDirectory = ${path.join(dir, 'log')}
LogLevel = INFO
[PRINT]
Directory = ${path.join(dir, 'spool')}
DetailedLog = true
BinaryLog = false
DeletePrintJobs = false
[DATABASE]
Directory = ${databaseDir}
[[COMMUNICATION]]
[TESTPRINTER]
Aetitle = ${aeTitle}
Description = Radflow test printer
Hostname = localhost
Port = ${port}
Type = LOCALPRINTER
DisableNewVRs = false
DisplayFormat = 1,1\\1,2\\2,1\\2,2\\2,3\\3,3\\3,4\\4,4\\4,5\\5,5\\6,6
FilmSizeID = 8INX10IN\\10INX12IN\\10INX14IN\\11INX14IN\\14INX14IN\\14INX17IN\\24CMX24CM\\24CMX30CM
MediumType = PAPER\\CLEAR FILM\\BLUE FILM
FilmDestination = MAGAZINE\\PROCESSOR
ImplicitOnly = false
MaxDensity = 320
MinDensity = 20
MaxPDU = 32768
OmitSOPClassUIDFromCreateResponse = false
PresentationLUTMatchRequired = false
PresentationLUTinFilmSession = false
Supports12Bit = true
SupportsImageSize = true
SupportsPresentationLUT = false
`;
  const configFile = path.join(dir, 'dcmpstat.cfg');
  await writeFile(configFile, config);
  const child = spawn('dcmprscp', ['-c', configFile, '-p', 'TESTPRINTER', '-v', '+d'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-2_000_000);
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const stop = async () => {
    await stopProcess(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port);
  } catch (error) {
    await stop();
    throw new Error(`dcmprscp did not start: ${log}`, { cause: error });
  }
  return { port, aeTitle, dir, databaseDir, output: () => log, stop };
}
