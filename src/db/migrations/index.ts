import type { Migration } from './engine.ts';
import * as initial from './001_initial.ts';
import * as dashboard from './002_dashboard.ts';
import * as catalogChanges from './003_catalog_changes.ts';
import * as descriptors from './004_descriptors.ts';
import * as descriptorsV2 from './005_descriptors_v2.ts';
import * as listIndexes from './006_drop_list_indexes.ts';
import * as renditions from './007_renditions.ts';
import * as roundLoudness from './008_round_loudness.ts';
import * as unreadColumns from './009_drop_unread_columns.ts';
import * as secrets from './010_secrets.ts';
import * as changeKinds from './011_change_kinds.ts';
import * as renditionClaims from './012_rendition_claims.ts';
import * as descriptorsV3 from './013_descriptors_v3.ts';
import * as downloadCounts from './014_download_counts.ts';
import * as unlockedChangeLog from './015_unlocked_change_log.ts';
import * as loops from './016_loops.ts';
import * as descriptorsV4 from './017_descriptors_v4.ts';

/** Every migration, in order. Names are stored in the database, so never rename one. */
export const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '002_dashboard': dashboard,
  '003_catalog_changes': catalogChanges,
  '004_descriptors': descriptors,
  '005_descriptors_v2': descriptorsV2,
  '006_drop_list_indexes': listIndexes,
  '007_renditions': renditions,
  '008_round_loudness': roundLoudness,
  '009_drop_unread_columns': unreadColumns,
  '010_secrets': secrets,
  '011_change_kinds': changeKinds,
  '012_rendition_claims': renditionClaims,
  '013_descriptors_v3': descriptorsV3,
  '014_download_counts': downloadCounts,
  '015_unlocked_change_log': unlockedChangeLog,
  '016_loops': loops,
  '017_descriptors_v4': descriptorsV4,
};
