import { Menu } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { BrandMark } from '#web/components/brand';
import { SkipLink } from '#web/components/skip-link';
import { Drawer } from '#web/components/ui/dialog';
import { RequireAdmin } from '#web/features/auth/components/require-admin';
import { AdminPanel } from './admin-panel';

/** The back office: navigation panel at left (a drawer on small screens) and the page. */
export function AdminLayout() {
  const [isMenuOpen, setMenuOpen] = useState(false);
  const close = () => setMenuOpen(false);
  return (
    <div className="min-h-dvh bg-stone-50">
      <RequireAdmin>
        <SkipLink />
        <aside className="fixed inset-y-0 left-0 z-30 hidden w-64 border-r border-stone-200/80 bg-white lg:block">
          <AdminPanel isCollapsible={false} />
        </aside>

        <div className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-stone-200/80 bg-white/90 px-3 backdrop-blur-md lg:hidden">
          <button
            type="button"
            onClick={() => setMenuOpen((v) => !v)}
            aria-label="Open menu"
            aria-haspopup="dialog"
            aria-expanded={isMenuOpen}
            className="inline-flex size-10 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100"
          >
            <Menu className="size-5.5" strokeWidth={1.75} aria-hidden="true" />
          </button>
          <p className="flex items-center gap-2 text-[15px] font-semibold tracking-tight text-stone-950">
            <BrandMark className="size-6" />
            Admin
          </p>
        </div>

        <Drawer open={isMenuOpen} onClose={close} side="left" aria-label="Admin navigation">
          <AdminPanel isCollapsible onNavigate={close} onClose={close} />
        </Drawer>

        <main id="main" tabIndex={-1} className="outline-none lg:pl-64">
          <div className="mx-auto w-full max-w-6xl px-5 py-8 sm:px-8 lg:py-12">
            <Outlet />
          </div>
        </main>
      </RequireAdmin>
    </div>
  );
}

/** The heading row of every admin page. */
export function AdminPageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-stone-950 sm:text-[1.75rem]">{title}</h1>
        {description ? <p className="mt-1.5 text-sm text-stone-500">{description}</p> : null}
      </div>
      {actions ? <div className="flex shrink-0 gap-2">{actions}</div> : null}
    </div>
  );
}
