import { purgeExpiredDataJob } from '../server/features/maintenance/maintenance.jobs'
import { gmailWatchRenewJob } from '../server/features/pipeline/pipeline.jobs'
import type { JobDefinition } from './job'

/** Every job the worker runs. Features add theirs here. */
export const jobRegistry: JobDefinition[] = [purgeExpiredDataJob, gmailWatchRenewJob]
