import { formatUsd } from '#common/money';
import type { AuditEntry } from '#common/schemas/admin-audit';

/** One "label: value" part of an audit entry's details, for display. */
export interface AuditDetailPart {
  label: string;
  value: string;
}

export interface AuditView {
  /** 'Update Order' */
  title: string;
  /** The acting admin's email, when recorded. */
  actor: string | null;
  /** false when the entry records a failed attempt. */
  isSuccess: boolean;
  /** The error text of a failed attempt. */
  error: string | null;
  parts: AuditDetailPart[];
}

const ACTION_TITLES: Record<string, string> = {
  update_order: 'Update Order',
  delete_order: 'Delete Order',
  process_airdrop: 'Process Airdrop',
  update_api_config: 'Update API Config',
  remove_api_config: 'Remove API Config',
  create_product: 'Create Product',
  update_product: 'Update Product',
  delete_product: 'Delete Product',
  update_message_status: 'Update Message Status',
  update_message_priority: 'Update Message Priority',
  reply_message: 'Reply to Message',
  resend_mail: 'Send Mail Again',
};

/** 'update_api_config' -> 'Update API Config'; unknown actions are title-cased. */
export function auditActionTitle(action: string): string {
  return (
    ACTION_TITLES[action] ??
    action
      .split(/[_.\-\s]+/)
      .filter(Boolean)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(' ')
  );
}

/** Keys shown by a dedicated part, or not at all. */
const HIDDEN = new Set(['admin', 'success', 'error', 'productId', 'orderId', 'messageId', 'id']);

function humanKey(key: string): string {
  const words = key
    .replace(/Cents$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, key = ''): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number' && key.endsWith('Cents')) return formatUsd(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  if (Array.isArray(value)) return value.map((v) => text(v)).join(', ') || '—';
  if (isRecord(value)) {
    if ('from' in value || 'to' in value) return `${text(value.from, key)} → ${text(value.to, key)}`;
    return Object.entries(value)
      .map(([k, v]) => `${humanKey(k)} ${text(v, k)}`)
      .join('; ');
  }
  return JSON.stringify(value);
}

/** What an audit row shows: a title, who did it, success, and the details as readable parts. */
export function describeAudit(entry: Pick<AuditEntry, 'action' | 'details'>): AuditView {
  const d = entry.details;
  const admin = isRecord(d.admin) && typeof d.admin.email === 'string' ? d.admin.email : null;
  const parts: AuditDetailPart[] = [];
  if (typeof d.shortId === 'string') parts.push({ label: 'Order', value: `#${d.shortId}` });
  if (typeof d.title === 'string') parts.push({ label: 'Product', value: d.title });
  if (typeof d.provider === 'string' && typeof d.keyName === 'string') {
    parts.push({ label: 'Config', value: `${d.provider} / ${d.keyName}` });
  }
  if (typeof d.messageId === 'string') parts.push({ label: 'Message', value: `#${d.messageId.slice(0, 8)}` });
  if ('from' in d && 'to' in d) {
    const label = entry.action.endsWith('_status')
      ? 'Status'
      : entry.action.endsWith('_priority')
        ? 'Priority'
        : 'Change';
    parts.push({ label, value: text({ from: d.from, to: d.to }) });
  }
  for (const [key, value] of Object.entries(d)) {
    if (HIDDEN.has(key) || ['shortId', 'title', 'provider', 'keyName', 'from', 'to'].includes(key)) {
      continue;
    }
    if (key === 'changed' && Array.isArray(value)) {
      const fields = value.map((v) => humanKey(String(v)).toLowerCase()).join(', ');
      parts.push({ label: 'Changed', value: fields || '—' });
      continue;
    }
    if (key === 'changes' && isRecord(value)) {
      for (const [field, change] of Object.entries(value))
        parts.push({ label: humanKey(field), value: text(change, field) });
      continue;
    }
    parts.push({ label: humanKey(key), value: text(value, key) });
  }
  const error = typeof d.error === 'string' && d.error !== '' ? d.error : null;
  return {
    title: auditActionTitle(entry.action),
    actor: admin,
    isSuccess: d.success !== false,
    error,
    parts,
  };
}
