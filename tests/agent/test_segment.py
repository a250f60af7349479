from hypothesis import given, settings
from hypothesis import strategies as st

from factgrain.agent.segment import segment, split_sentences


def test_sentences_and_abbreviations():
    text = 'Dr. Smith went home. He said "Yes." Then 3 dogs ran.\n\nNew paragraph'
    sents = [text[s:e] for s, e in split_sentences(text)]
    assert sents == ["Dr. Smith went home.", 'He said "Yes."', "Then 3 dogs ran.", "New paragraph"]


def test_long_text_is_chunked_and_every_sentence_has_one_chunk():
    text = " ".join(f"Sentence number {i} talks about topic {i % 7}." for i in range(300))
    doc = segment(text, chunk_size=600)
    assert len(doc.chunks) > 5
    owned = [i for c in doc.chunks for i in c.sentence_indices]
    assert owned == list(range(len(doc.sentences)))
    for c in doc.chunks:
        assert text[c.start:c.end] == c.text
        for i in c.sentence_indices:
            s = doc.sentences[i]
            assert c.start <= s.start and s.end <= c.end and s.chunk_index == c.index


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("abc XYZ.!?\n\"'")), max_size=300))
def test_sentence_offsets_index_the_text(text):
    doc = segment(text or "x", chunk_size=80)
    src = text or "x"
    for s in doc.sentences:
        assert src[s.start:s.end] == s.text
        assert s.text == s.text.strip() and s.text


def test_parser_does_not_start_a_sentence_in_mid_clause():
    # the small parser, left alone, closes a sentence after "around" and gives "80,000 books." its own root
    from factgrain.agent import reader

    doc = reader.parse("It will be open every day and will hold around 80,000 books.")
    assert len(list(doc.sents)) == 1
    assert [t.text for t in doc if t.dep_ == "ROOT"] == ["be"]
    assert split_sentences("It will be open every day and will hold around 80,000 books.") == [(0, 60)]


def test_sentence_starts_after_final_punctuation_and_line_breaks_are_kept():
    from factgrain.agent import reader

    doc = reader.parse("He left early. 5 people stayed.\nthen the hall closed")
    assert [s.text.strip() for s in doc.sents] == ["He left early.", "5 people stayed.", "then the hall closed"]
