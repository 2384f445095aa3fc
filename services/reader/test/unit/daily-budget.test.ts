import { DailyBudget } from '../../src/unseen-lookup';

describe('DailyBudget: lookups without a token a day, all addresses together', () => {
  test('gives perDay a day, refuses the rest, and is full again when the next day (UTC) starts', () => {
    let now = Date.parse('2026-12-04T23:59:00.000Z');
    const budget = new DailyBudget(3, () => now);
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
    expect(budget.secondsToRefill()).toBe(60);
    now = Date.parse('2026-12-05T00:00:00.000Z');
    expect(budget.take()).toBe(true);
  });

  test('0 a day refuses every lookup', () => {
    expect(new DailyBudget(0, () => 0).take()).toBe(false);
  });
});
