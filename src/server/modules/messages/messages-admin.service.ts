import { ADMIN_MESSAGES, UUID_PATTERN } from '#common/schemas/admin';
import {
  MESSAGE_STATUSES,
  type AdminMessage,
  type AdminMessagePage,
  type AdminMessagesQuery,
  type MessagePriority,
  type MessageStatus,
} from '#common/schemas/admin-messages';
import { userTopic } from '#common/schemas/events';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import { announceAudit, recordAudit, type AdminActor } from '../audit/audit.service';
import type { EventHub } from '../events/event-hub';
import { createMessagesRepository } from './messages.repository';
import { pageWindow, toPage } from '#server/lib/pagination';

/**
 * Message triage. Status moves forward only, unread -> read -> archived (unread -> archived
 * allowed); archived is final: any status change from it is 409. Setting the current status again
 * changes nothing and records nothing. Priority may be set freely (archived messages included:
 * the spec restricts only the status). Archiving records resolution_time (seconds from the
 * message's creation). Each change is audited and announced to 'admin:messages'
 * and the sender's 'tickets:<userId>' topic.
 */
export interface MessagesAdminService {
  list(query: AdminMessagesQuery): Promise<AdminMessagePage>;
  setStatus(id: string, status: MessageStatus, actor: AdminActor): Promise<AdminMessage>;
  setPriority(id: string, priority: MessagePriority, actor: AdminActor): Promise<AdminMessage>;
}

const NOT_FOUND = 'Message not found';

export function createMessagesAdminService(deps: {
  db: Db;
  events: EventHub;
  logger: Logger;
}): MessagesAdminService {
  const repo = createMessagesRepository(deps.db);

  const change = async (
    id: string,
    actor: AdminActor,
    apply: (current: { status: MessageStatus; priority: MessagePriority; created_at: Date }) => {
      status?: MessageStatus;
      priority?: MessagePriority;
      resolution_time?: number;
      action: 'update_message_status' | 'update_message_priority';
      from: string;
      to: string;
    } | null,
  ): Promise<AdminMessage> => {
    if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', NOT_FOUND);
    const result = await deps.db.transaction().execute(async (trx) => {
      const tx = createMessagesRepository(trx);
      const current = await tx.lockById(id);
      if (!current) throw new AppError('NOT_FOUND', NOT_FOUND);
      const next = apply(current);
      if (!next) return { userId: current.user_id, entry: null, changed: false };
      const { action, from, to, ...changes } = next;
      await tx.update(id, changes, new Date());
      const entry = await recordAudit(
        trx,
        { action, details: { messageId: id, from, to, success: true }, actor },
        deps.logger,
      );
      return { userId: current.user_id, entry, changed: true };
    });
    if (result.changed) {
      await deps.events.publish('admin:messages', { type: 'message.updated', data: { id } });
      // A guest's message (the contact form) has no account to tell.
      if (result.userId) {
        await deps.events.publish(userTopic('tickets', result.userId), {
          type: 'ticket.updated',
          data: { id },
        });
      }
      await announceAudit(deps.events, result.entry);
    }
    const message = await repo.findById(id);
    if (!message) throw new AppError('NOT_FOUND', NOT_FOUND);
    return message;
  };

  return {
    async list(query) {
      const { rows, total } = await repo.findPage({
        search: query.search,
        status: query.status === 'all' ? undefined : query.status,
        priority: query.priority === 'all' ? undefined : query.priority,
        ...pageWindow(query),
      });
      return toPage(rows, query, total);
    },

    setStatus(id, status, actor) {
      return change(id, actor, (current) => {
        if (current.status === status) return null;
        if (current.status === 'archived') throw new AppError('CONFLICT', ADMIN_MESSAGES.archivedFinal);
        if (MESSAGE_STATUSES.indexOf(status) < MESSAGE_STATUSES.indexOf(current.status)) {
          throw new AppError('CONFLICT', `A ${current.status} message cannot go back to ${status}`);
        }
        // Archiving resolves it: the spec's resolution_time, in seconds from the message.
        const resolution =
          status === 'archived'
            ? {
                resolution_time: Math.max(
                  0,
                  Math.round((Date.now() - new Date(current.created_at).getTime()) / 1000),
                ),
              }
            : {};
        return { status, ...resolution, action: 'update_message_status', from: current.status, to: status };
      });
    },

    setPriority(id, priority, actor) {
      return change(id, actor, (current) => {
        if (current.priority === priority) return null;
        return { priority, action: 'update_message_priority', from: current.priority, to: priority };
      });
    },
  };
}
