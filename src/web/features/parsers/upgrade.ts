import { paths } from '@shared/paths'

/** Where every 'Upgrade Now' goes: the plan section of /settings. */
export const UPGRADE_PATH = `${paths.settings}#plan`
