import type { ComponentChildren } from 'preact';
import { base, navigate } from '../router.js';

/** A real link (opens in a new tab, keyboard reachable) that changes page without reloading. */
export function Link(props: { to: string; current?: boolean; children: ComponentChildren }) {
  return (
    <a
      href={`${base}${props.to}`}
      aria-current={props.current === true ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}
