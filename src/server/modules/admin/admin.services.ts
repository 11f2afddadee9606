import type { Config } from '#server/config';
import type { Db } from '#server/db/client';
import type { Logger } from '#server/lib/logger';
import {
  createAirdropsAdminService,
  type AirdropEngine,
  type AirdropsAdminService,
} from '../airdrops/airdrops-admin.service';
import { createAuditService, type AuditService } from '../audit/audit.service';
import { createCatalogAdminService, type CatalogAdminService } from '../catalog/catalog-admin.service';
import type { EventHub } from '../events/event-hub';
import { createMessagesAdminService, type MessagesAdminService } from '../messages/messages-admin.service';
import { createOrdersAdminService, type OrdersAdminService } from '../orders/orders-admin.service';
import type { RefundView } from '../refunds/refunds.service';
import type { SettingsService } from '../settings/settings.service';
import type { Storage } from '../storage/storage';
import { createAdminStatsService, type AdminStatsService } from './admin-stats.service';

/** The back office's services, built once with the app's dependencies (deps.ts: `deps.admin`). */
export interface AdminServices {
  stats: AdminStatsService;
  products: CatalogAdminService;
  orders: OrdersAdminService;
  audit: AuditService;
  airdrops: AirdropsAdminService;
  messages: MessagesAdminService;
  settings: SettingsService;
}

export function createAdminServices(deps: {
  config: Config;
  db: Db;
  events: EventHub;
  storage: Storage;
  logger: Logger;
  /** The settings module's service (its list and update are the settings screen). */
  settings: SettingsService;
  /** The rewards engine that 'Process Airdrop' runs. */
  airdropEngine?: AirdropEngine;
  /** How refund DTOs name their coin and link their transaction (the order view lists refunds). */
  refundView: () => Promise<RefundView>;
}): AdminServices {
  const { config, db, events, storage } = deps;
  const logger = deps.logger.child({ module: 'admin' });
  const audit = createAuditService({ db, events, logger });
  return {
    audit,
    stats: createAdminStatsService({ db, audit }),
    products: createCatalogAdminService({ db, storage, events, logger }),
    orders: createOrdersAdminService({
      db,
      config,
      events,
      logger,
      imagePublicBase: storage.publicBase,
      refundView: deps.refundView,
    }),
    airdrops: createAirdropsAdminService({ db, audit, engine: deps.airdropEngine }),
    messages: createMessagesAdminService({ db, events, logger }),
    settings: deps.settings,
  };
}
