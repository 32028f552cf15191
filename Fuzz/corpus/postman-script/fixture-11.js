pm.test('parts', function () {
    pm.expect(pm.response.json().multipart[0].name).to.eql('caption');
    pm.expect(pm.response.json().multipart[0].value).to.eql('at the beach');
});