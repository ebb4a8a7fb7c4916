"""What the AppTest files share: Streamlit caches emptied around every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import streamlit as st


@pytest.fixture(autouse=True)
def clear_caches() -> Iterator[None]:
    """Each test starts and ends with empty caches, so no answer or worker leaks across tests."""
    st.cache_data.clear()
    st.cache_resource.clear()
    yield
    st.cache_data.clear()
    st.cache_resource.clear()
