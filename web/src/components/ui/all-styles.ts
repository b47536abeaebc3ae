// Every Mantine component's stylesheet, in `@layer mantine`. The participant's shell links only its
// own components' sheets (web/vite.config.ts); every lazily loaded page comes with this one.
import '@mantine/core/styles.layer.css';
