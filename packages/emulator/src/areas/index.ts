import type { EmulatorArea } from '../area.js';
import { spacesArea } from './spaces.js';
import { hostQueryArea } from './hostquery/index.js';
import { uptimeArea } from './uptime.js';
import { listsArea } from './lists/index.js';
import { maintenanceWindowsArea } from './maintenance-windows/index.js';
import { connectorsArea } from './connectors/index.js';
import { rulesArea } from './rules/index.js';
import { fleetArea } from './fleet/index.js';
import { statusArea } from './status.js';
import { casesArea } from './cases/index.js';
import { agentBuilderArea } from './agent-builder/index.js';
import { attackDiscoveryArea } from './attack-discovery.js';
import { savedObjectsArea } from './saved-objects.js';
import { exceptionListsArea } from './exceptions/index.js';
import { timelinesArea } from './timelines/index.js';
import { endpointArea } from './endpoint/protection-updates-note.js';
import { anonymizationFieldsArea } from './anonymization-fields.js';
import { dataViewsArea } from './data-views.js';
import { assetCriticalityArea } from './asset-criticality/index.js';
import { workflowsArea } from './workflows/index.js';
import { entityStoreArea } from './entity-store/index.js';
import { watchlistsArea } from './watchlists/index.js';
import { endpointScriptsArea } from './endpoint/scripts-library.js';
import { privilegeMonitoringArea } from './privilege-monitoring/index.js';

/** Every API area the emulator serves. Each area is one file (or folder) under areas/. */
export const AREAS: EmulatorArea[] = [
  spacesArea, hostQueryArea, uptimeArea, listsArea, maintenanceWindowsArea, connectorsArea, rulesArea, fleetArea, statusArea, casesArea,
  agentBuilderArea, attackDiscoveryArea, savedObjectsArea, exceptionListsArea, timelinesArea, endpointArea,
  anonymizationFieldsArea, dataViewsArea, assetCriticalityArea,
  workflowsArea,
  entityStoreArea,
  watchlistsArea,
  endpointScriptsArea,
  privilegeMonitoringArea,
];
