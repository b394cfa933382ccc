import { useEffect, useState } from 'preact/hooks';
import { whenSignedOut } from './api.js';
import { Link } from './parts/link.js';
import { KeysPage } from './pages/keys-page.js';
import { ModelsPage } from './pages/models-page.js';
import { OverviewPage } from './pages/overview-page.js';
import { PlaygroundPage } from './pages/playground-page.js';
import { RequestsPage } from './pages/requests-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { UsagePage } from './pages/usage-page.js';
import { VideosPage } from './pages/videos-page.js';
import { useRoute } from './router.js';
import { forgetAdminKey, savedAdminKey } from './session.js';

const pages = [
  { path: '/', title: 'Overview', page: OverviewPage },
  { path: '/keys', title: 'Keys', page: KeysPage },
  { path: '/usage', title: 'Usage', page: UsagePage },
  { path: '/models', title: 'Models', page: ModelsPage },
  { path: '/requests', title: 'Requests', page: RequestsPage },
  { path: '/videos', title: 'Video jobs', page: VideosPage },
  { path: '/playground', title: 'Playground', page: PlaygroundPage },
] as const;

export function App() {
  const [signedIn, setSignedIn] = useState(savedAdminKey() !== null);
  const path = useRoute();
  useEffect(() => whenSignedOut(() => setSignedIn(false)), []);
  const current = pages.find((page) => page.path === path) ?? pages[0];
  useEffect(() => {
    document.title = `${current.title} · Switchyard console`;
  }, [current]);
  if (!signedIn) return <SignInPage onSignedIn={() => setSignedIn(true)} />;
  const Page = current.page;
  return (
    <div class="shell">
      <header class="top">
        <span class="brand">Switchyard</span>
        <nav aria-label="Pages">
          {pages.map((page) => (
            <Link key={page.path} to={page.path} current={page === current}>
              {page.title}
            </Link>
          ))}
        </nav>
        <button
          type="button"
          class="quiet"
          onClick={() => {
            forgetAdminKey();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        <h1>{current.title}</h1>
        <Page />
      </main>
    </div>
  );
}
