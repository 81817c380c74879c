import type { Page } from 'playwright-core';

/** A dashboard screen (issue 24 §3): its totals, its charts, the drill-down dialog. */
export class DashboardScreen {
  constructor(private readonly page: Page) {}

  async open(path: string, range: { startTime: string; endTime: string }): Promise<void> {
    await this.page.goto(`${path}?startTime=${range.startTime}&endTime=${range.endTime}`);
  }

  /** A total's tile, named '<label>: <value>'. */
  total(label: string, value: string) {
    return this.page.getByRole('button', { name: `${label}: ${value}`, exact: true });
  }

  chart(title: string) {
    return this.page.getByRole('region', { name: title, exact: true });
  }

  /** The drawn bars of one series of a chart (x-charts groups them by series). */
  bars(title: string, seriesId: string) {
    return this.chart(title).locator(`[data-series="${seriesId}"] .MuiBarChart-element`);
  }

  drillDown(title: string) {
    return this.page.getByRole('dialog', { name: title, exact: true });
  }
}
