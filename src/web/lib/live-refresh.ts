/**
 * How often the dashboard and the parser pages ask again while the tab is visible (TanStack Query
 * stops interval refetches in a hidden tab): a change shows within this plus one request
 * (docs/decisions/023).
 */
export const LIVE_REFRESH_MS = 3_000
/** While a backfill runs, its progress bar moves at this pace. */
export const BACKFILL_REFRESH_MS = 1_000

/** Polling options for a live query; faster while `isBusy` says work is moving (a backfill). */
export function liveRefetch<T>(isBusy?: (data: T) => boolean) {
  return {
    refetchInterval: (query: { state: { data: T | undefined } }) => (query.state.data !== undefined && isBusy?.(query.state.data) ? BACKFILL_REFRESH_MS : LIVE_REFRESH_MS),
    refetchIntervalInBackground: false,
  }
}
