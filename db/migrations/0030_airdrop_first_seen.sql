-- When the airdrop scheduler first saw this database (its first tick with a token and a treasury
-- key): a daily top-50 slot that passed before it is
-- never run, so a new shop does not pay its (demo) holders before anyone has looked; the first
-- daily run is at the next slot. One row. A shop that has already airdropped keeps its schedule
-- (its first run's time).
create table airdrop_first_seen (
  id boolean primary key default true check (id),
  at timestamptz not null
);
insert into airdrop_first_seen (at) select min(created_at) from airdrop_runs having count(*) > 0;
