import { describe, expect, it } from 'vitest';
import { freePort, lostPortRace } from './peers.js';

describe('ports for test peers', () => {
  it('draws ports below the ephemeral range that outgoing connections use', async () => {
    // CI once saw Orthanc's HTTP port taken between the probe and the bind: a port from listen(0)
    // is also what the kernel gives the next outgoing connection of any test process.
    for (let i = 0; i < 20; i += 1) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
    }
  });

  it("recognises a peer's lost bind in Orthanc's and DCMTK's words", () => {
    expect(
      lostPortRace(
        'E1128 OrthancException.cpp:58] The TCP port of the HTTP server is privileged or already in use:  (port = 35279)',
      ),
    ).toBe(true);
    expect(lostPortRace('F: cannot listen on port 20001: Address already in use')).toBe(true);
    expect(lostPortRace('E: Association Request Failed')).toBe(false);
  });
});
