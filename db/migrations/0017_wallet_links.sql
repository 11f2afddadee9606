-- Wallets linked to accounts (issue 13 part 6): a wallet is linked only after it signed a Sign In
-- With Solana message naming a one-time nonce. One wallet per account; a wallet belongs to at most
-- one account (proving it again from another account moves it there).
create table wallet_links (
  user_id text primary key references users (id) on delete cascade,
  wallet_address text not null unique check (char_length(wallet_address) between 32 and 44),
  linked_at timestamptz not null default now()
);

create table wallet_challenges (
  nonce text primary key,
  user_id text not null references users (id) on delete cascade,
  wallet_address text not null,
  issued_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index wallet_challenges_expires_idx on wallet_challenges (expires_at);
