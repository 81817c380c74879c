import { statSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * `--shard=i/n` by weight instead of vitest's equal file counts: the browser stories differ tenfold
 * in length, so each shard takes the heaviest files left first onto whichever shard is lightest.
 * A file's weight is its size (a story's length follows its text closely enough; no table to keep),
 * ties broken by path so every shard of one run makes the same split.
 */
class WeightedShards extends BaseSequencer {
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.ctx.config.shard!;
    const weighed = files
      .map((spec) => ({ spec, weight: statSync(spec.moduleId).size }))
      .sort((a, b) => b.weight - a.weight || (a.spec.moduleId < b.spec.moduleId ? -1 : 1));
    const loads = Array.from({ length: count }, () => ({ weight: 0, specs: [] as TestSpecification[] }));
    for (const file of weighed) {
      const lightest = loads.reduce((min, load) => (load.weight < min.weight ? load : min));
      lightest.weight += file.weight;
      lightest.specs.push(file.spec);
    }
    return loads[index - 1]!.specs;
  }
}

export default defineConfig({
  test: {
    projects: [
      'packages/core',
      'packages/dicom',
      'apps/server',
      'apps/server/vitest.isolated.config.ts',
      'apps/router',
      'apps/web',
      'e2e',
    ],
    // Vitest's default on 2 cores is one worker; the suites wait on PGlite, DCMTK and Orthanc often
    // enough that two run in 412 s instead of about 600 s (measured on this machine).
    maxWorkers: 2,
    sequence: { sequencer: WeightedShards },
  },
});
