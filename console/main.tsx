import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { App } from './app.js';

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
