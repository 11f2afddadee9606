-- Which mails an order has sent (the admin's order card lists them; a second 'has shipped' mail
-- within the hour is held back): each order mail carries its order and its kind. Earlier order
-- mails get them from their event keys ('order-confirmed:<order>', 'order-refund:<order>',
-- 'order-update:<order>:<status>:<tracking>', 'order-refunded:<refund>').
alter table mail_outbox add column order_id uuid;
alter table mail_outbox add column kind text;
update mail_outbox set order_id = split_part(event_key, ':', 2)::uuid,
  kind = case
    when event_key like 'order-confirmed:%' then 'confirmed'
    when event_key like 'order-refund:%' then 'payment-refund'
    when subject like '% has shipped' then 'shipped'
    else 'status'
  end
where split_part(event_key, ':', 1) in ('order-confirmed', 'order-refund', 'order-update')
  and split_part(event_key, ':', 2) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
update mail_outbox m set order_id = r.order_id, kind = 'refunded'
from refunds r
where m.event_key = 'order-refunded:' || r.id::text and r.order_id is not null;
create index mail_outbox_order_idx on mail_outbox (order_id, created_at) where order_id is not null;
